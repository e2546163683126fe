// The one way the client makes elements. Attributes and text only: no inline style and no
// markup from data, which the server's Content-Security-Policy (style-src 'self') refuses anyway.

/**
 * el(tag, props, ...children): props is a class name (a string; "" for none) or an object of
 * attributes whose "on…" keys add listeners instead; null or undefined props, attributes and
 * children are left out; children are nodes or text.
 */
export function el(tag, props, ...children) {
  const e = document.createElement(tag);
  if (typeof props === "string") {
    if (props) e.className = props;
  } else if (props) {
    for (const [k, v] of Object.entries(props)) {
      if (v === null || v === undefined) continue;
      if (k === "style") throw new Error("no inline styles (CSP): give the element a class in css/app.css");
      if (k.startsWith("on") && typeof v === "function") e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v);
    }
  }
  e.append(...children.filter((c) => c !== null && c !== undefined));
  return e;
}
