// The scan's algorithm choices as plain enumerations, with no library includes, so that device code
// (block/block_scan.cuh) can name them without the host header options.hpp (which adds their names
// and the options structure).
#pragma once

namespace parascan {

/// How one thread block scans the per-thread partials of its tile.
enum class block_algorithm {
  hillis_steele,    ///< Kogge–Stone / Hillis–Steele, double-buffered: log2(p) steps, p·log2(p) work
  blelloch_padded,  ///< Blelloch 1990 up-sweep/down-sweep, bank-conflict padding (GPU Gems 3 ch. 39)
  brent_kung,       ///< Brent–Kung: the same up-sweep, an inclusive down-sweep (no identity needed)
  warp_shuffle,     ///< warp-synchronous shuffles, then a scan of the warp totals
};

/// How a whole array is scanned across thread blocks.
enum class device_strategy {
  recursive,         ///< scan tiles, scan the tile sums recursively, add them back (~4n traffic)
  reduce_then_scan,  ///< reduce tiles, scan the sums recursively, rescan tiles seeded (~3n traffic)
  single_pass,       ///< chained scan with decoupled look-back, Merrill & Garland 2016 (~2n traffic)
};

}  // namespace parascan
