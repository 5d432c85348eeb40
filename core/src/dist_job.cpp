// parascan::dist::join_job (distributed.hpp): one process per GPU, rank and size from the launcher's
// environment, the NCCL id through a shared file or an environment variable.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>
#include "parascan/distributed.hpp"
#include "parascan/error.hpp"

namespace parascan::dist {
namespace {

/// The first of the variables that is set, as an integer; -1 when none is.
int env_int(std::initializer_list<const char*> names) {
  for (const char* n : names) {
    const char* v = std::getenv(n);
    if (v == nullptr || *v == '\0') continue;
    char* end = nullptr;
    const long x = std::strtol(v, &end, 10);
    if (*end != '\0' || x < 0) throw std::runtime_error(std::string("parascan::dist::join_job: ") + n + "='" + v + "' is not a rank or size");
    return static_cast<int>(x);
  }
  return -1;
}

std::string to_hex(const ncclUniqueId& id) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (char c : id.internal) {
    const auto b = static_cast<unsigned char>(c);
    s += digits[b >> 4];
    s += digits[b & 15];
  }
  return s;
}

ncclUniqueId from_hex(const std::string& s, const char* where) {
  ncclUniqueId id{};
  if (s.size() != 2 * sizeof id.internal)
    throw std::runtime_error(std::string("parascan::dist::join_job: ") + where + " holds " + std::to_string(s.size()) +
                             " characters, not the " + std::to_string(2 * sizeof id.internal) + " hex digits of an NCCL id");
  auto nibble = [&](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    throw std::runtime_error(std::string("parascan::dist::join_job: ") + where + ": '" + c + "' is not a hex digit");
  };
  for (std::size_t i = 0; i < sizeof id.internal; ++i)
    id.internal[i] = static_cast<char>(nibble(s[2 * i]) << 4 | nibble(s[2 * i + 1]));
  return id;
}

}  // namespace

std::string nccl_id_hex() {
  ncclUniqueId id;
  nccl_check(ncclGetUniqueId(&id), "parascan::dist: ncclGetUniqueId");
  return to_hex(id);
}

process_rank join_job(const std::string& id_file, double timeout_s) {
  process_rank p;
  p.rank = env_int({"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK"});
  p.size = env_int({"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE"});
  if (p.rank < 0 || p.size < 1 || p.rank >= p.size)
    throw std::runtime_error("parascan::dist::join_job: no rank and size in the environment (RANK and WORLD_SIZE, "
                             "OMPI_COMM_WORLD_RANK and _SIZE, or PMI_RANK and PMI_SIZE)");
  int devices = 0;
  PARASCAN_CUDA_CHECK(cudaGetDeviceCount(&devices));
  const int local = env_int({"LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK"});
  p.device = local >= 0 ? local : p.rank % devices;
  if (p.device >= devices)
    throw std::runtime_error("parascan::dist::join_job: local rank " + std::to_string(p.device) + " but " +
                             std::to_string(devices) + " visible CUDA devices");
  PARASCAN_CUDA_CHECK(cudaSetDevice(p.device));

  ncclUniqueId id{};
  const char* env_file = std::getenv("PARASCAN_NCCL_ID_FILE");
  const std::string file = !id_file.empty() ? id_file : env_file ? env_file : "";
  if (const char* hex = std::getenv("PARASCAN_NCCL_ID"); file.empty() && hex != nullptr) {
    id = from_hex(hex, "PARASCAN_NCCL_ID");
  } else if (file.empty()) {
    throw std::runtime_error("parascan::dist::join_job: no way to share the NCCL id: pass a file on a file system "
                             "every rank sees, set PARASCAN_NCCL_ID_FILE, or PARASCAN_NCCL_ID (256 hex digits)");
  } else if (p.rank == 0) {
    nccl_check(ncclGetUniqueId(&id), "parascan::dist: ncclGetUniqueId");
    const std::string tmp = file + ".tmp" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
    {
      std::ofstream f(tmp);
      f << to_hex(id);
      if (!f) throw std::runtime_error("parascan::dist::join_job: cannot write " + tmp);
    }
    if (std::rename(tmp.c_str(), file.c_str()) != 0) throw std::runtime_error("parascan::dist::join_job: cannot rename " + tmp + " to " + file);
  } else {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
    std::string s;
    for (;;) {
      std::ifstream f(file);
      if (f && (f >> s) && s.size() == 2 * sizeof id.internal) break;
      if (std::chrono::steady_clock::now() > deadline)
        throw std::runtime_error("parascan::dist::join_job: rank 0 wrote no NCCL id to " + file + " within " +
                                 std::to_string(timeout_s) + " s");
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    id = from_hex(s, file.c_str());
  }
  nccl_check(ncclCommInitRank(&p.comm, p.size, id, p.rank), "parascan::dist::join_job: ncclCommInitRank");
  return p;
}

}  // namespace parascan::dist
