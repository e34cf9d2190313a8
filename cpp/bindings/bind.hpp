// The binding layer's shared pieces (cpp/bindings): what bind_values.cpp
// (JS <-> Request: the arena, reading a call, JSON out), bind_resident.cpp
// (resident tensors) and embind.cpp (the entry points and the
// EMSCRIPTEN_BINDINGS block) use from one another. The binding converts
// values only: every check of a call is the core's door.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <stdexcept>
#include <string>

#include "normlab/ops.hpp"

namespace normlab {
namespace bind {

// ---- the last call's error (lastError, lastErrorInfo) ------------------------

extern std::string last_error;
extern std::string last_code;      // InputError::code, or the failure kind ("too_large", "out_of_memory", "internal")
extern std::string last_argument;  // the input or attribute at fault, when known
void fail_with(const char* code, std::string message, std::string argument = {});

/// A request whose layout the reader and JS disagree about: a bug in
/// normlab's JS layer, not the caller's mistake.
struct Malformed {};

/// Run f; any failure becomes the last error (false).
template <class F>
bool guarded(const std::string& op, F&& f) {
  try {
    f();
    return true;
  } catch (const Malformed&) {
    fail_with("internal", "normlab: a malformed request reached the core (a bug in normlab's JS layer)");
  } catch (const std::length_error&) {
    fail_with("too_large", (op.size() <= kMaxName ? op : std::string("normlab")) + ": a result would be too large");
  } catch (const std::bad_alloc&) {
    fail_with("out_of_memory", (op.size() <= kMaxName ? op : std::string("normlab")) + ": out of memory");
  } catch (const InputError& e) {
    fail_with(e.code, e.what(), e.argument);
  } catch (const std::exception& e) {
    fail_with("internal", e.what());
  } catch (...) {
    fail_with("internal", "normlab: unknown failure");
  }
  return false;
}

// ---- the arena (bind_values.cpp) ---------------------------------------------

struct Arena {
  std::uint8_t* base = nullptr;
  std::size_t capacity = 0;
};
extern Arena arena;
constexpr std::size_t kArenaKeep = 1 << 20;  // kept between calls; larger ones go back

/// A block of at least `bytes` for JS to write a call into (0: out of memory,
/// with the error kept). Its contents do not survive a reserve that grows it.
double reserve(double bytes);
void drop_arena();
/// The call JS wrote at byte `at` of the arena, as the door's Request.
Request parse(double at, double header, double text_bytes, bool describing);

/// A description (core.describe) and the registry, as JSON text.
std::string description_json(const Request& r, const Description& d);
std::string registry_json();

// ---- resident tensors (bind_resident.cpp) --------------------------------------

struct Block {
  float* data;
  std::size_t size;
};
/// A live resident tensor's memory by id, or null (freed, or never made).
const Block* resident(double id);

/// A float32 tensor kept in WASM memory. JS owns it through its handle:
/// delete() (NlTensor.free) gives the memory back at once; a finalizer does
/// it for forgotten ones. Its shape is read from the arena (`rank` doubles at
/// byte offset `at`) and checked like any input's; when it is bad or memory
/// runs out, id() is 0 and lastError says why.
class Resident {
 public:
  Resident(double at, double rank);
  ~Resident() { release(); }
  Resident(const Resident&) = delete;
  Resident& operator=(const Resident&) = delete;

  double id() const { return id_; }
  /// Byte address of the data in WASM memory (0 once freed).
  double pointer() const;
  double size() const;
  void release();

 private:
  double id_ = 0;
};

}  // namespace bind
}  // namespace normlab
