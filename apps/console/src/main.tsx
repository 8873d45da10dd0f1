import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';
import { createQueryClient } from './lib/query-client.ts';
import './styles.css';

const queryClient = createQueryClient();
const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <App queryClient={queryClient} />
  </StrictMode>,
);
