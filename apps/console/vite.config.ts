/**
 * The console's build: hashed assets under `/console/assets/`, served by the API (apps/api
 * src/http/console.ts). `vite` (dev) serves the app with hot reload and proxies the API, whose
 * URL `pnpm dev` passes as SANDBANK_API_URL.
 */
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = process.env.SANDBANK_API_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No inline <script> or data: modules: the page's CSP allows only this origin's files.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
  server: {
    port: Number(process.env.CONSOLE_DEV_PORT ?? 5173),
    strictPort: true,
    // The session cookie's route too; the Host header is kept, so its Origin check sees the dev server's own origin.
    proxy: { '/trpc': api, '/v1': api, '/healthz': api, '/console/session': api },
  },
});
