// Text measures without a DOM (the Node renderer uses them before any
// element exists), and the subscripts of coordinate names.

/** A rough advance width in px: CJK characters are square, others about half an em. */
export const textWidth = (s, size) =>
  [...s].reduce((w, c) => w + (/[\u2e80-\u9fff\uff00-\uffef]/.test(c) ? 1 : 0.56), 0) * size;

/** A coordinate's index as subscript digits: 12 → '₁₂' (x₁ + c, h₃: a reader read "x1" as a variable name). */
export const subscript = (n) => [...String(n)].map((c) => '₀₁₂₃₄₅₆₇₈₉'[c]).join('');
