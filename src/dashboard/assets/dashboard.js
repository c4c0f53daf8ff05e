// The dashboard works without this file; it adds what a page cannot do on its own.
// Copy buttons: <button data-copy="ID"> copies the text of the element with that id.
document.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('button[data-copy]') : null;
  if (!button) return;
  const source = document.getElementById(button.getAttribute('data-copy') || '');
  if (!source || !navigator.clipboard) return;
  navigator.clipboard.writeText(source.textContent || '').then(
    () => {
      button.textContent = 'Copied';
    },
    () => {
      button.textContent = 'Select and copy it by hand';
    },
  );
});

// Forms that cannot be undone: <form data-confirm="question"> asks before it is sent.
document.addEventListener('submit', (event) => {
  const form = event.target instanceof HTMLFormElement ? event.target : null;
  const question = form?.getAttribute('data-confirm');
  if (question && !window.confirm(question)) event.preventDefault();
});

// A choice of "all" or "only these" (a client's scopes, a webhook's events): ticking one of these
// marks "only these", as the server reads the ticks anyway.
document.addEventListener('change', (event) => {
  const box = event.target instanceof HTMLInputElement && event.target.type === 'checkbox' ? event.target : null;
  const some = box?.checked ? box.closest('fieldset')?.querySelector('input[type="radio"][value="some"]') : null;
  if (some instanceof HTMLInputElement) some.checked = true;
});
