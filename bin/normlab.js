#!/usr/bin/env node
// The normlab command: `normlab render` draws a figure as a standalone SVG in
// Node (same core, same drawing code as in a page); `normlab figures` lists
// the figures and their attributes.
import { writeFileSync, readFileSync } from 'node:fs';
import { short } from '../web/core/normlab.js';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

const HELP = `normlab ${pkg.version} — interactive figures on normalization, computed by a C++ core in WebAssembly

Usage:
  normlab render <tag> [attr=value ...] [--lang en|zh] [--theme light|dark] [--width px] [--no-caption] [-o file.svg]
      Draw a figure's initial state as one standalone SVG (colours and sizes as
      plain attributes, no script, no stylesheet) and print it, or write it to
      a file with -o. Panels keep their design size and flow in rows up to
      --width (default 720); the figure's description is written under them
      (--no-caption leaves it to the SVG's <desc> only). Attributes are the
      element's own, for example
        normlab render nl-bar-compare vector=2,-1,3 --lang zh > bars.svg
        normlab render nl-axis-cube method=group_norm num-groups=2 --theme dark -o cube.svg
  normlab figures
      List the figures and the attributes each one takes.
  normlab --help | --version

In code: import { renderFigure } from 'normlab/render' (Node), or
import { loadCore } from 'normlab' to compute without any DOM.`;

// A reader closing the pipe early (normlab render ... | head) is not an error.
process.stdout.on('error', (e) => process.exit(e.code === 'EPIPE' ? 0 : 1));

// Every error: one line on stderr (values in it quoted through short()), exit code 2.
function fail(message) {
  process.stderr.write(`normlab: ${String(message).replace(/\s*[\r\n]+\s*/g, ' ')}\n`);
  process.exit(2);
}

// Why a file could not be written, in words (the code for the rare others).
const WRITE_ERRORS = {
  EISDIR: 'it is a folder',
  ENOENT: 'its folder does not exist',
  ENOTDIR: 'a part of its path is not a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
};

async function main(argv) {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(HELP + '\n');
    return;
  }
  if (command === '--version' || command === '-v') {
    process.stdout.write(pkg.version + '\n');
    return;
  }
  const { renderFigure, figureTags } = await import('../web/render/index.js');
  if (command === 'figures') {
    for (const [tag, attrs] of Object.entries(await figureTags())) process.stdout.write(`${tag}  ${attrs.join(' ')}\n`);
    return;
  }
  if (command !== 'render') fail(`unknown command "${short(command)}" (try normlab --help)`);
  const opts = {},
    attrs = {};
  let tag = null,
    outFile = null;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    const value = () => {
      if (i + 1 >= rest.length) fail(`${a} needs a value`);
      return rest[++i];
    };
    if (a === '--lang') opts.lang = value();
    else if (a === '--theme') opts.theme = value();
    else if (a === '--width') opts.width = Number(value());
    else if (a === '-o' || a === '--out') outFile = value();
    else if (a === '--no-caption') opts.caption = false;
    else if (a === '--help' || a === '-h') {
      process.stdout.write(HELP + '\n');
      return;
    } else if (a.startsWith('-')) fail(`unknown option ${short(a)} (try normlab --help)`);
    else if (!tag) tag = a;
    else {
      const k = a.indexOf('=');
      if (k <= 0) fail(`expected attr=value, got "${short(a)}"`);
      attrs[a.slice(0, k)] = a.slice(k + 1);
    }
  }
  if (!tag) fail('render needs a figure tag, such as nl-bar-compare (normlab figures lists them)');
  let result;
  try {
    result = await renderFigure(tag, attrs, opts);
  } catch (e) {
    fail(e.message.replace(/^render: /, ''));
  }
  if (outFile) {
    try {
      writeFileSync(outFile, result.svg);
    } catch (e) {
      fail(`cannot write ${short(outFile)}: ${WRITE_ERRORS[e.code] ?? e.code ?? short(e.message)}`);
    }
  } else process.stdout.write(result.svg);
}

// Anything unforeseen is still one line, not a stack trace.
await main(process.argv.slice(2)).catch((e) => fail(short(e?.message ?? e)));
