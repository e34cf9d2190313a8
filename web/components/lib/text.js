// Text measures without a DOM (the Node renderer uses them before any
// element exists).

/** A rough advance width in px: CJK characters are square, others about half an em. */
export const textWidth = (s, size) =>
  [...s].reduce((w, c) => w + (/[\u2e80-\u9fff\uff00-\uffef]/.test(c) ? 1 : 0.56), 0) * size;
