# Type stubs for parascan (see the docstrings in __init__.py).
from typing import Any, Literal, Optional, Tuple, Union

ArrayLike = Any  # CuPy / PyTorch / NumPy array, or any object with __cuda_array_interface__ or __dlpack__
StreamLike = Union[int, Any, None]  # torch.cuda.Stream, cupy.cuda.Stream, cudaStream_t, __cuda_stream__
Op = Literal["sum", "product", "min", "max", "and", "or", "xor"]

__version__: str

def device_count() -> int: ...
def exclusive_scan(x: ArrayLike, op: Op = "sum", init: Optional[Union[int, float]] = None, dtype: Any = None,
                   out: Optional[ArrayLike] = None, algorithm: Optional[str] = None, strategy: Optional[str] = None,
                   stream: StreamLike = None) -> ArrayLike: ...
def inclusive_scan(x: ArrayLike, op: Op = "sum", init: Optional[Union[int, float]] = None, dtype: Any = None,
                   out: Optional[ArrayLike] = None, algorithm: Optional[str] = None, strategy: Optional[str] = None,
                   stream: StreamLike = None) -> ArrayLike: ...
def select(x: ArrayLike, mask: Optional[ArrayLike] = None, keep: Optional[str] = None, indices: bool = False,
           out: Optional[ArrayLike] = None, count: Optional[ArrayLike] = None,
           stream: StreamLike = None) -> Union[ArrayLike, Tuple[ArrayLike, ArrayLike]]: ...
def partition(x: ArrayLike, mask: Optional[ArrayLike] = None, keep: Optional[str] = None,
              stream: StreamLike = None) -> Tuple[ArrayLike, int]: ...
def sort(keys: ArrayLike, values: Optional[ArrayLike] = None, descending: bool = False, begin_bit: int = 0,
         end_bit: Optional[int] = None, stream: StreamLike = None) -> Union[ArrayLike, Tuple[ArrayLike, ArrayLike]]: ...
def argsort(keys: ArrayLike, descending: bool = False, begin_bit: int = 0, end_bit: Optional[int] = None,
            stream: StreamLike = None) -> ArrayLike: ...
def summed_area_table(image: ArrayLike, layout: Literal["padded", "inclusive"] = "padded", dtype: Any = None,
                      squared: bool = False, stream: StreamLike = None) -> ArrayLike: ...
