// The endgame tables' panel (issue #43): shown when the game state carries
// `tablebase` (the server runs with --tb-dir and the tables cover the
// position): the result in words and, behind a toggle, every legal move's
// result. app.js calls renderTablebase(state) after each state.

export function renderTablebase(state) {
  let panel = document.getElementById('tablebase');
  const tb = state && state.tablebase;
  if (!tb) {
    if (panel) panel.hidden = true;
    return;
  }
  if (!panel) {
    panel = document.createElement('section');
    panel.className = 'panel';
    panel.id = 'tablebase';
    panel.innerHTML =
      '<h2>Tablebase</h2><p id="tb-words" data-tb-words></p>' +
      '<details><summary>Every move</summary><ol id="tb-moves" data-tb-moves></ol></details>' +
      '<p id="tb-note" class="small"></p>';
    const analysis = document.getElementById('analysis');
    analysis.parentNode.insertBefore(panel, analysis.nextSibling);
  }
  panel.hidden = false;
  const words = tb.result.words;
  document.getElementById('tb-words').textContent = words.charAt(0).toUpperCase() + words.slice(1) + '.';
  document.getElementById('tb-note').textContent = tb.note;
  const list = document.getElementById('tb-moves');
  list.textContent = '';
  for (const m of tb.moves) {
    const item = document.createElement('li');
    item.dataset.move = m.move;
    item.textContent = `${m.notation}: ${m.words}` + (m.move === tb.best ? ' (best)' : '');
    list.appendChild(item);
  }
}
