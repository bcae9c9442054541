// Asking before what cannot be undone by a click (issue #62): resigning,
// deleting a game. `ask` shows the question in the page's own dialog
// (Escape or No: nothing done) and answers whether Yes was chosen.

import { $ } from './api.js';

let pending = null;

export function ask(question, yes = 'Yes') {
  const dialog = $('confirm');
  if (pending) pending(false);
  $('confirm-text').textContent = question;
  $('confirm-yes').textContent = yes;
  dialog.showModal();
  $('confirm-no').focus();
  return new Promise((resolve) => {
    pending = (answer) => {
      pending = null;
      if (dialog.open) dialog.close();
      resolve(answer);
    };
  });
}

export function initDialogs() {
  $('confirm-yes').addEventListener('click', () => pending && pending(true));
  $('confirm-no').addEventListener('click', () => pending && pending(false));
  // Escape closes the dialog: a No.
  $('confirm').addEventListener('close', () => pending && pending(false));
}
