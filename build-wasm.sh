#!/usr/bin/env bash
# Build the WASM core (dist/normlab-core.{mjs,wasm}) and the training module
# (dist/normlab-train.wasm) from cpp/src + cpp/bindings + one file of cpp/sets.
# Rebuilds only when a source, header or this script is newer than the output.
set -euo pipefail
cd "$(dirname "$0")"

out=dist/normlab-core.wasm
glue=dist/normlab-core.mjs
if [ -f "$out" ] && [ -f "$glue" ] && [ -f dist/normlab-train.wasm ] && [ "${1:-}" != "--force" ]; then
  newer=$(find cpp build-wasm.sh -newer "$out" -type f | head -1)
  if [ -z "$newer" ]; then
    echo "build-wasm: dist/normlab-core.* is up to date"
    node scripts/build-web.mjs
    exit 0
  fi
fi

# xtensor and xtl only: /usr/include itself would pull glibc headers into WASM.
inc=build/wasm-include
mkdir -p "$inc" dist
for d in xtensor xtl; do
  [ -e "$inc/$d" ] || ln -s "/usr/include/$d" "$inc/$d"
done

# Debian's emscripten JS optimizer needs Debian's node modules.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

# Size: -Oz (with inlining) everywhere but the SIMD kernels (with the finite
# scan) and the generic ops' inner loops (linalg.cpp), which are -O3. The hot
# paths hold no big buffer in a std::vector or an xtensor container (views in,
# plain float[] out).
# Native WebAssembly exceptions (no JS trampolines).
flags=(-std=c++17 -msimd128 -mbulk-memory -fwasm-exceptions -DNDEBUG -Icpp/include -I"$inc")
objs=()
mkdir -p build/wasm-obj
for src in cpp/src/*.cpp cpp/bindings/*.cpp cpp/sets/core.cpp cpp/sets/training.cpp; do
  obj=build/wasm-obj/$(basename "$(dirname "$src")")-$(basename "${src%.cpp}").o
  objs+=("$obj")
  if [ ! -f "$obj" ] || [ -n "$(find "$src" cpp/include cpp/bindings/*.hpp cpp/sets build-wasm.sh -newer "$obj" -type f | head -1)" ]; then
    echo "build-wasm: em++ $src"
    # Emscripten's -Oz also turns inlining off (-fno-inline-functions): every
    # vector size() and string length() became a call, a 3-vector LayerNorm cost
    # ~20 us in the door, and freeing a std::vector ran element by element. With
    # inlining back on the module is smaller too (88.2 -> 81.1 KB gzip).
    level="-Oz -finline-functions"
    # The transformer's loops (training module only, no size budget) are -O3 as well: measured with
    # bench/transformer.mjs, -Oz made a step of the default model 2.4x the native time.
    case "$src" in
      */kernels.cpp | */linalg.cpp | */training_transformer.cpp) level=-O3 ;;
    esac
    em++ "${flags[@]}" $level -c "$src" -o "$obj" &
    # two cores: at most two compiles at once
    while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n; done
  fi
done
wait

# Two modules from the same objects: the core (every op but training: the
# size budget of issue 12) and the training module, which only
# <nl-depth-training> loads (loadTrainer()). wasm-ld drops what a module's op
# set does not reach. Both take the same imports and give the same exports,
# so one glue file instantiates either: checked below, byte for byte.
link() { # output.mjs objects...
  local o=$1
  shift
  em++ "$@" -lembind -Oz -msimd128 -mbulk-memory -fwasm-exceptions -sMALLOC=emmalloc \
    -sMODULARIZE=1 -sEXPORT_ES6=1 -sEXPORT_NAME=createNormlabCore \
    -sENVIRONMENT=web -sDYNAMIC_EXECUTION=0 -sFILESYSTEM=0 \
    -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=1gb -sABORTING_MALLOC=0 \
    -sINITIAL_MEMORY=16mb -sTOTAL_STACK=1mb \
    -sEXPORTED_RUNTIME_METHODS=[] -sINCOMING_MODULE_JS_API=[instantiateWasm,locateFile,onAbort,print,printErr] \
    -o "$o"
}
core_objs=() train_objs=()
for o in "${objs[@]}"; do
  case "$o" in
    */src-ops_training.o | */src-training_*.o | */sets-training.o) train_objs+=("$o") ;;
    */sets-core.o) core_objs+=("$o") ;;
    *) core_objs+=("$o") train_objs+=("$o") ;;
  esac
done
echo "build-wasm: linking $glue"
link "$glue" "${core_objs[@]}" &
echo "build-wasm: linking build/wasm-train/normlab-train.mjs"
mkdir -p build/wasm-train
link build/wasm-train/normlab-train.mjs "${train_objs[@]}" &
wait -n && wait -n
mv build/wasm-train/normlab-train.wasm dist/normlab-train.wasm
if ! cmp -s <(sed 's/normlab-train\.wasm/normlab-core.wasm/g' build/wasm-train/normlab-train.mjs) "$glue"; then
  echo "build-wasm: the training module needs a glue of its own (its imports or exports differ from the core's)" >&2
  diff <(sed 's/normlab-train\.wasm/normlab-core.wasm/g' build/wasm-train/normlab-train.mjs) "$glue" | head -20 >&2
  exit 1
fi
# Emscripten minifies whitespace only: esbuild (a devDependency) renames the
# glue's locals too (Embind's glue: 47 KB -> 25 KB).
node_modules/.bin/esbuild --minify --format=esm --log-level=warning "$glue" --outfile="$glue.min"
mv "$glue.min" "$glue"
ls -l dist/

# The web bundle: third-party modules the figures import, as ES modules in dist/vendor/.
node scripts/build-web.mjs
