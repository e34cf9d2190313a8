// The binding layer: Embind (docs/design.md, "Layering"). This file holds
// the entry points and the EMSCRIPTEN_BINDINGS block; bind_values.cpp the
// conversions between JS and the door, bind_resident.cpp resident tensors.
//
// Bound here: the registry (`registry`, as JSON), the door (`invoke`,
// `describe`, `lastError`, `release`), the arena JS places a call in
// (`reserve`), the resident tensor (class `Resident`, freed by delete()) and
// `heapBytes`.
//
// A call travels as plain numbers and bytes in one reused block of WASM
// memory, the arena: a header of doubles (names by length, shapes as the
// caller's numbers, where each input's data is, attributes, output targets),
// then the names' UTF-8 bytes, then the input data. JS writes it once; C++
// reads it with every offset checked and hands a Request to the core's one
// door (execute_request), which checks everything a caller can get wrong.
// Results stay in C++ until the next call or release(): `invoke` lists where
// they are and JS copies them out once.
#include <emscripten/bind.h>

#include <malloc.h>

#include <string>
#include <vector>

#include "bind.hpp"

using namespace normlab;
using namespace normlab::bind;

namespace normlab {
namespace bind {

std::string last_error;
std::string last_code;
std::string last_argument;

void fail_with(const char* code, std::string message, std::string argument) {
  last_error = std::move(message);
  last_code = code;
  last_argument = std::move(argument);
}

}  // namespace bind
}  // namespace normlab

namespace {

Outputs results;  // the last call's outputs, until release()

/// Run the call in the arena. Returns the byte address of a listing of the
/// outputs (doubles: their count, then for each: index in the op's outputs,
/// integer flag, rank, sizes, byte address, element count), or 0 (see
/// lastError). The listing lives apart from the arena, which may hold outputs.
std::vector<double> listing;

double run_call(double at, double header, double text_bytes) {
  results.clear();
  last_error.clear();
  std::string op;
  const bool ok = guarded(op, [&] {
    const Request r = parse(at, header, text_bytes, false);
    op = r.op.text;
    execute_request(r, results);
    const OpSpec& spec = *registry().at(op);
    listing.assign(1, double(results.list.size()));
    for (const Output& o : results.list) {
      double index = 0;
      for (const auto& out : spec.outputs) {
        if (o.name == out.name) break;
        ++index;
      }
      listing.push_back(index);
      listing.push_back(o.integer ? 1 : 0);
      listing.push_back(double(o.shape.size()));
      for (auto d : o.shape) listing.push_back(double(d));
      listing.push_back(double(reinterpret_cast<std::uintptr_t>(o.integer ? static_cast<const void*>(o.ints.data())
                                                                          : static_cast<const void*>(o.data))));
      listing.push_back(double(o.size()));
    }
  });
  if (!ok) {
    results.clear();
    return 0;
  }
  return double(reinterpret_cast<std::uintptr_t>(listing.data()));
}

/// Give the last call's results back (JS has copied them); a large arena too.
void release() {
  results.clear();
  std::vector<double>().swap(listing);
  if (arena.capacity > kArenaKeep) drop_arena();
}

std::string error() { return last_error; }
/// "code\nargument" of the last error (README, "Error codes").
std::string error_info() { return last_code + "\n" + last_argument; }

/// The five pieces of a normalization (core.describe) as JSON, or "" (see lastError).
std::string describe_call(double at, double header, double text_bytes) {
  last_error.clear();
  std::string out;
  guarded("describe", [&] {
    const Request r = parse(at, header, text_bytes, true);
    out = description_json(r, describe_request(r));
  });
  return out;
}

/// Bytes the allocator has handed out and not taken back (leak tests).
double heap_bytes() { return static_cast<double>(mallinfo().uordblks); }

}  // namespace

EMSCRIPTEN_BINDINGS(normlab) {
  using namespace emscripten;
  function("reserve", &reserve);
  function("invoke", &run_call);
  function("release", &release);
  function("lastError", &error);
  function("lastErrorInfo", &error_info);
  function("describe", &describe_call);
  function("registry", &registry_json);
  function("heapBytes", &heap_bytes);
  function(
      "maxElements", +[]() { return double(kMaxElements); });
  class_<Resident>("Resident")
      .constructor<double, double>()
      .function("id", &Resident::id)
      .function("pointer", &Resident::pointer)
      .function("size", &Resident::size);
}
