/**
 * `/docs`: Swagger UI over `/openapi.json`, served from the `swagger-ui-dist` package (no CDN).
 * The page and its start-up script are our own files, so the page's CSP needs no inline script
 * and no nonce: scripts, styles, images and fetches all come from this origin.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { type Request, type Response, Router } from 'express';
import helmet from 'helmet';

const SWAGGER_UI = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/swagger-ui-bundle.js'));
const ASSETS = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'favicon-16x16.png']);

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>Sandbank API reference</title>
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
    <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png" sizes="32x32">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/docs/assets/swagger-ui-bundle.js"></script>
    <script src="/docs/assets/init.js"></script>
  </body>
</html>
`;

// validatorUrl: null keeps the page from asking an outside validator about our document.
const INIT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

/** Only what Swagger UI needs: same-origin scripts and styles, data: icons, fetches to this origin. */
const DOCS_CSP_DIRECTIVES = {
  defaultSrc: ["'none'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  objectSrc: ["'none'"],
};

export function docsRouter(options: { upgradeInsecureRequests: boolean }): Router {
  const router = Router();
  router.use(
    helmet.contentSecurityPolicy({
      useDefaults: false,
      directives: { ...DOCS_CSP_DIRECTIVES, upgradeInsecureRequests: options.upgradeInsecureRequests ? [] : null },
    }),
  );
  router.get('/', (_req: Request, res: Response) => {
    res.type('html').send(PAGE);
  });
  router.get('/assets/init.js', (_req: Request, res: Response) => {
    res.type('text/javascript').send(INIT);
  });
  router.get('/assets/:file', (req: Request, res: Response, next) => {
    const file = String(req.params.file);
    if (!ASSETS.has(file)) {
      next();
      return;
    }
    // `root` keeps send's dot-file check to the file name (the package lives under node_modules/.pnpm).
    res.sendFile(file, { root: SWAGGER_UI, maxAge: '1d' });
  });
  return router;
}
