// Docusaurus: render a normlab figure in the browser only. Use it in MDX as
//   <NormlabFigure tag="nl-bar-compare" vector="1,2,3" />
import React, { useEffect } from 'react';
import BrowserOnly from '@docusaurus/BrowserOnly';

function Figure({ tag, ...attributes }) {
  useEffect(() => {
    import('normlab/elements').then(({ defineElements }) => defineElements());
  }, []);
  return React.createElement(tag, attributes);
}

export default function NormlabFigure(props) {
  return <BrowserOnly fallback={<div>Loading figure…</div>}>{() => <Figure {...props} />}</BrowserOnly>;
}
