// normlab/render — a figure's initial state as a standalone SVG, drawn in Node.

/** Options of renderFigure. */
export interface RenderOptions {
  /** 'en', 'zh' or a language added with registerLocale (default 'en'). */
  lang?: string;
  /** The palette (default 'light'). */
  theme?: 'light' | 'dark';
  /** The widest row of panels in CSS px, 200..4000 (default 720). */
  width?: number;
  /** Write the figure's description under it (default true); it is always the SVG's <desc>. */
  caption?: boolean;
}

/** What renderFigure returns. */
export interface RenderResult {
  /** The SVG document: colours and sizes as attributes, no script, no stylesheet. */
  svg: string;
  width: number;
  height: number;
  /** The figure's state, as its `state` property gives it in a page. */
  state: Readonly<Record<string, unknown>>;
  /** The figure's text description (also the SVG's <desc>). */
  description: string;
  /** The figure's name (the SVG's <title>). */
  name: string;
}

/**
 * Draw `tag` (for example 'nl-bar-compare') with `attributes` as an SVG.
 * Rejects with an Error naming the tag, attribute or option at fault.
 */
export function renderFigure(
  tag: string,
  attributes?: Record<string, string | number>,
  options?: RenderOptions,
): Promise<RenderResult>;

/** Each figure's tag with the attributes it takes. */
export function figureTags(): Promise<Record<string, string[]>>;
