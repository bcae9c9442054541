// /rules: every game's rules on one page (rules.js), each under its
// name's anchor (`/rules#catchess`), with links between them.

import { ui, api } from './api.js';
import { renderRules } from './rules.js';

async function start() {
  ui.glyphs = localStorage.getItem('catchess-glyphs') || 'chinese';
  const variants = await api('GET', '/variants');
  const nav = document.getElementById('rules-nav');
  const main = document.getElementById('rules-games');
  for (const v of variants) {
    ui.layouts[v.name] = v.layout;
    const link = document.createElement('a');
    link.href = '#' + v.name;
    link.textContent = v.layout.title;
    nav.appendChild(link);
    const box = document.createElement('article');
    box.id = v.name;
    box.className = 'panel rules';
    main.appendChild(box);
    renderRules(box, v.name);
  }
  // The anchor's game, now that it exists.
  const target = location.hash && document.getElementById(location.hash.slice(1));
  if (target) target.scrollIntoView();
}

start().catch((e) => {
  document.getElementById('rules-games').textContent = 'The rules could not be loaded: ' + e.message;
});
