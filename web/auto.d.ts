// `normlab/auto` defines every element on import; it exports nothing.
export {};
