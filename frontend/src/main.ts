// One bundle for every page; the server-rendered <body data-page> says which part to start.
import './style.css';
import { initHomePage } from './pages/home';
import { initRunPage } from './pages/run';
import { initEditorPage } from './pages/editor';
import { initComparePage } from './pages/compare';
import { initExperimentPage } from './pages/experiment';

function start(): void {
  const body = document.body;
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
