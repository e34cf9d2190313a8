// The native peer of the training benches: the core built by CMake in Release (g++ -O3) and a bench driver
// `bench/<name>.cpp` linked against it, at build/<name>. Returns the binary's path.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export function buildNativeDriver(name) {
  console.log(`building the native core (cmake, g++ -O3) and bench/${name}.cpp…`);
  execFileSync('cmake', ['-S', root, '-B', `${root}build/native`, '-DCMAKE_BUILD_TYPE=Release'], { stdio: 'ignore' });
  execFileSync('cmake', ['--build', `${root}build/native`, '-j2', '--target', 'normlab'], { stdio: 'inherit' });
  const out = `${root}build/${name}`;
  execFileSync(
    'g++',
    [
      '-std=c++17',
      '-O3',
      '-DNDEBUG',
      `-I${root}cpp/include`,
      `${root}bench/${name}.cpp`,
      `${root}build/native/libnormlab.a`,
      '-o',
      out,
    ],
    { stdio: 'inherit' },
  );
  return out;
}
