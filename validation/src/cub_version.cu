// Which CUB parascan::validation was compiled with (cub_count.hpp).
#include <cub/version.cuh>
#include <string>
#include "parascan/validation/cub_count.hpp"

std::string parascan::validation::cub_version() {
  return "CUB " + std::to_string(CUB_MAJOR_VERSION) + "." + std::to_string(CUB_MINOR_VERSION) + "." +
         std::to_string(CUB_SUBMINOR_VERSION);
}
