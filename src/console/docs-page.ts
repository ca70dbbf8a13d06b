/**
 * The API reference page: Swagger UI (swagger-ui-dist) rendering GET /v1/openapi.json. Its
 * files are served under a path that carries the package's version, so they can be cached for
 * good; the page and its start-up script are ours, with nothing inline.
 */
export function docsHtml(version: string): string {
  const base = `/docs/assets/${version}`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Trunkline API reference</title>
  <link rel="icon" type="image/png" href="${base}/favicon-32x32.png">
  <link rel="stylesheet" href="${base}/swagger-ui.css">
  <link rel="stylesheet" href="/docs/docs.css">
</head>
<body>
  <header class="tl-docs-bar"><a href="/console">Trunkline console</a></header>
  <main id="swagger-ui"></main>
  <script src="${base}/swagger-ui-bundle.js"></script>
  <script src="/docs/docs.js"></script>
</body>
</html>
`;
}

export const DOCS_JS = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/v1/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    layout: 'BaseLayout',
    persistAuthorization: false,
    tryItOutEnabled: false,
  });
});
`;

export const DOCS_CSS = `html { box-sizing: border-box; overflow-y: scroll; }
*, *::before, *::after { box-sizing: inherit; }
body { margin: 0; background: #fafafa; font-family: system-ui, sans-serif; }
.tl-docs-bar { padding: 10px 20px; background: #1b2a41; }
.tl-docs-bar a { color: #fff; font-weight: 600; text-decoration: none; }
`;

/** The files of swagger-ui-dist the page uses; nothing else of the package is reachable. */
export const SWAGGER_UI_FILES = new Set(['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png']);
