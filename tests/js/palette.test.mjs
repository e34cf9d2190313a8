// The palette: every meaning has a colour in light and dark, each stands out
// from its background by WCAG's 3:1 for graphics, the meanings are told apart
// from each other, and the README's picture (docs/palette.svg) is current.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { MEANINGS, paletteSvg, tokens } from '../../scripts/gen-palette.mjs';

// WCAG 2 relative luminance and contrast ratio.
const lum = (hex) => {
  const [r, g, b] = [1, 3, 5]
    .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrast = (a, b) => {
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

test('contrast of the checker itself: black on white is 21, white on white 1', () => {
  assert.ok(Math.abs(contrast('#000000', '#ffffff') - 21) < 1e-9);
  assert.equal(contrast('#ffffff', '#ffffff'), 1);
});

for (const theme of ['light', 'dark']) {
  test(`${theme}: every meaning has a colour that stands out from the background (>= 3:1)`, () => {
    const t = tokens()[theme];
    for (const [name] of MEANINGS) {
      assert.match(t[name] ?? '', /^#[0-9a-f]{6}$/, `--nl-${name} in ${theme}`);
      assert.ok(
        contrast(t[name], t.bg) >= 3,
        `--nl-${name} ${t[name]} on ${t.bg}: ${contrast(t[name], t.bg).toFixed(2)}`,
      );
    }
    assert.ok(contrast(t.fg, t.bg) >= 4.5 && contrast(t.muted, t.bg) >= 4.5, 'text colours meet 4.5:1');
  });

  test(`${theme}: no two meanings share a colour`, () => {
    const t = tokens()[theme];
    const colours = MEANINGS.map(([n]) => t[n]).filter((c, i) => MEANINGS[i][0] !== 'chosen');
    assert.equal(new Set(colours).size, colours.length);
  });
}

test('docs/palette.svg is generated from the current tokens', () => {
  assert.equal(
    readFileSync(new URL('../../docs/palette.svg', import.meta.url), 'utf8'),
    paletteSvg(),
    'run node scripts/gen-palette.mjs',
  );
});
