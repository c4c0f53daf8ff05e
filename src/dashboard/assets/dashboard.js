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

// A choice of "all" or "only these" (a client's scopes, a webhook's events): the server goes by the
// ticks, so ticking one marks "only these", and marking "all" clears the ticks.
document.addEventListener('change', (event) => {
  const input = event.target instanceof HTMLInputElement ? event.target : null;
  const fieldset = input?.closest('fieldset');
  if (!input || !fieldset) return;
  if (input.type === 'checkbox' && input.checked) {
    const some = fieldset.querySelector('input[type="radio"][value="some"]');
    if (some instanceof HTMLInputElement) some.checked = true;
  } else if (
    input.type === 'radio' &&
    input.value === 'all' &&
    input.checked &&
    fieldset.querySelector('input[type="radio"][value="some"]')
  ) {
    for (const box of fieldset.querySelectorAll('input[type="checkbox"]')) if (box instanceof HTMLInputElement) box.checked = false;
  }
});
