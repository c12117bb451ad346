// One bundle for every page; the server-rendered <body data-page> says which part to start.
import './style.css';
import { initHomePage } from './pages/home';
import { initRunPage } from './pages/run';
import { initEditorPage } from './pages/editor';
import { initComparePage } from './pages/compare';
import { initExperimentPage } from './pages/experiment';

/**
 * A heading's "copy id" button (run and experiment pages: the heading shows the 8-character short id, the full one
 * is on hover and copied by the button). The clipboard API where the page may use it (a secure context such as
 * localhost), else a selected text field and the browser's copy command; the button says it worked.
 */
function wireCopyButtons(): void {
  for (const b of document.querySelectorAll<HTMLButtonElement>('button.copy-id')) {
    b.addEventListener('click', async () => {
      const text = b.dataset.copy ?? '';
      let copied = false;
      try {
        await navigator.clipboard.writeText(text);
        copied = true;
      } catch {
        const field = Object.assign(document.createElement('textarea'), { value: text });
        document.body.append(field);
        field.select();
        copied = document.execCommand('copy');
        field.remove();
      }
      b.textContent = copied ? 'copied' : 'copy failed';
      b.dataset.copied = String(copied);
      setTimeout(() => (b.textContent = 'copy id'), 1500);
    });
  }
}

function start(): void {
  const body = document.body;
  wireCopyButtons();
  switch (body.dataset.page) {
    case 'home':
      initHomePage();
      break;
    case 'run':
      initRunPage(body);
      break;
    case 'editor':
      initEditorPage(body);
      break;
    case 'compare':
      initComparePage(body);
      break;
    case 'experiment':
      initExperimentPage(body);
      break;
  }
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
