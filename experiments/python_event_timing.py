"""Event-timed single calls after a synchronisation (how python -m parascan.bench times), 2^20 int32:
the compiled layer with raw pointers per strategy, the Python functions with and without out=, torch.cumsum,
torch.empty_like and the C++ two-phase call, the direct calls (entry 24) and select beside
torch.masked_select; each with its host time. Run on a GPU machine with the package
on PYTHONPATH: python3 experiments/python_event_timing.py (docs/performance.md entry 22)."""
import torch, time, numpy as np, parascan
from parascan import _core
n=1<<20
x=torch.randint(0,100,(n,),dtype=torch.int32,device="cuda"); out=torch.empty_like(x)
s=torch.cuda.current_stream().cuda_stream
def ev(name, fn, rep=30):
    a,b=torch.cuda.Event(enable_timing=True),torch.cuda.Event(enable_timing=True)
    fn(); torch.cuda.synchronize(); ts=[]; hs=[]
    for _ in range(rep):
        a.record(); h0=time.perf_counter(); fn(); h1=time.perf_counter(); b.record(); b.synchronize(); ts.append(a.elapsed_time(b)*1000); hs.append((h1-h0)*1e6)
    print(f"{name:50s} event {np.median(ts):7.1f} us  host {np.median(hs):7.1f} us", flush=True)
for strat in ["", "single_pass", "reduce_then_scan", "recursive"]:
    ev("_core.scan raw "+strat, lambda: _core.scan(True, x.data_ptr(), "i4", out.data_ptr(), "i4", n, "sum", None, "", strat, s))
ev("parascan.inclusive_scan(x,out=out)", lambda: parascan.inclusive_scan(x,out=out))
ev("parascan.inclusive_scan(x)", lambda: parascan.inclusive_scan(x))
ev("torch.cumsum(x,0,out=out)", lambda: torch.cumsum(x,0,out=out))
ev("torch.cumsum(x,0,dtype=torch.int32)", lambda: torch.cumsum(x,0,dtype=torch.int32))
ev("_core.direct_scan(True,x,'sum')", lambda: _core.direct_scan(True, x, "sum"))
mask=x>50
ev("parascan.select(x,mask=mask)", lambda: parascan.select(x,mask=mask))
ev("parascan.select(x,mask=mask,stream=s) (Python layer)", lambda: parascan.select(x,mask=mask,stream=s))
ev("torch.masked_select(x,mask)", lambda: torch.masked_select(x,mask))
ev("torch.empty_like(x)", lambda: torch.empty_like(x))
shape=x.shape
ev("x.new_empty(shape)", lambda: x.new_empty(shape))
ev("torch.empty(shape, dtype, device)", lambda: torch.empty(shape, dtype=torch.int32, device=x.device))
ev("x.data_ptr() + x.is_contiguous() + x.dtype", lambda: (x.data_ptr(), x.is_contiguous(), x.dtype))
ev("torch._C._cuda_getCurrentRawStream(0)", lambda: torch._C._cuda_getCurrentRawStream(0))
ev("cxx_scan_call_us x1", lambda: _core.cxx_scan_call_us(x.data_ptr(), out.data_ptr(), n, 1, s))
ev("cxx_scan_call_us x1 n=1024", lambda: _core.cxx_scan_call_us(x.data_ptr(), out.data_ptr(), 1024, 1, s))
