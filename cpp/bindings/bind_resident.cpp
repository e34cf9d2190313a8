// Resident tensors: float32 memory a JS handle owns across calls (inputs
// and output targets by id, so that a figure's tensors are not copied in
// and out on every call).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

#include "bind.hpp"

namespace normlab {
namespace bind {

namespace {

// Resident tensors' memory, by id (ids are never reused).
std::map<double, Block> residents;
double next_id = 1;

}  // namespace

const Block* resident(double id) {
  auto it = residents.find(id);
  return it == residents.end() ? nullptr : &it->second;
}

Resident::Resident(double at, double rank) {
  last_error.clear();
  guarded("tensor", [&] {
    if (!(at >= 0) || std::floor(at) != at || !(rank >= 0) || (at + 8 * std::min(rank, 64.0)) > double(arena.capacity))
      throw Malformed{};
    const double* dims = reinterpret_cast<const double*>(arena.base + static_cast<std::size_t>(at));
    const Shape shape = caller_shape("tensor: shape", dims, rank);  // the same rules as any input's shape
    const std::size_t n = checked_size(shape, "tensor: shape");
    float* p = new float[std::max<std::size_t>(n, 1)];
    std::memset(p, 0, std::max<std::size_t>(n, 1) * sizeof(float));
    id_ = next_id++;
    residents[id_] = {p, n};
  });
}

double Resident::pointer() const {
  auto it = residents.find(id_);
  return it == residents.end() ? 0 : double(reinterpret_cast<std::uintptr_t>(it->second.data));
}

double Resident::size() const {
  auto it = residents.find(id_);
  return it == residents.end() ? 0 : double(it->second.size);
}

void Resident::release() {
  auto it = residents.find(id_);
  if (it == residents.end()) return;
  delete[] it->second.data;
  residents.erase(it);
}

}  // namespace bind
}  // namespace normlab
