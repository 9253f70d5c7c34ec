// The look of the API reference at /docs: Swagger UI in the web app's colours (dark or light, following
// the system like the app's first visit), a top bar whose logo leads back to the app, and a layout that
// works on a phone. Everything is served by the server itself: no CDN, no outside font.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 172 32"><rect width="32" height="32" rx="7" fill="#0B0E14"/>' +
  '<g fill="#5EEAD4"><rect x="6" y="13" width="2.5" height="6" rx="1.25"/><rect x="10.5" y="9" width="2.5" height="14" rx="1.25"/>' +
  '<rect x="15" y="6" width="2.5" height="20" rx="1.25"/><rect x="19.5" y="10" width="2.5" height="12" rx="1.25"/>' +
  '<rect x="24" y="14" width="2.5" height="4" rx="1.25"/></g>' +
  '<text x="42" y="22" font-family="system-ui, sans-serif" font-size="16" font-weight="600" fill="#5EEAD4">← Tazamun</text></svg>';

const CSS = `
:root { --bg: #f6f7fb; --surface: #ffffff; --border: #dde2ea; --fg: #0f172a; --muted: #526074; --accent: #0f766e; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #0b0e14; --surface: #121722; --border: #273043; --fg: #e6e9f0; --muted: #9aa4b5; --accent: #2dd4bf; }
  .swagger-ui, .swagger-ui .info .title, .swagger-ui .info p, .swagger-ui .info li, .swagger-ui .opblock-tag,
  .swagger-ui .opblock .opblock-summary-description, .swagger-ui .opblock .opblock-summary-path,
  .swagger-ui table thead tr td, .swagger-ui table thead tr th, .swagger-ui .parameter__name,
  .swagger-ui .parameter__type, .swagger-ui .response-col_status, .swagger-ui .tab li, .swagger-ui .model,
  .swagger-ui .model-title, .swagger-ui section.models h4, .swagger-ui .opblock-description-wrapper p,
  .swagger-ui .responses-inner h4, .swagger-ui .responses-inner h5, .swagger-ui label, .swagger-ui .btn {
    color: var(--fg) !important;
  }
  .swagger-ui .opblock .opblock-section-header, .swagger-ui section.models, .swagger-ui .scheme-container,
  .swagger-ui .model-box, .swagger-ui input, .swagger-ui select, .swagger-ui textarea {
    background: var(--surface) !important; color: var(--fg) !important; border-color: var(--border) !important;
  }
}
html, body { background: var(--bg); color: var(--fg); margin: 0; }
body { font-family: system-ui, -apple-system, "Segoe UI", "Noto Sans", sans-serif; }
.swagger-ui { font-family: inherit; }
.swagger-ui .topbar { background: #0b0e14; border-bottom: 1px solid #273043; padding: 10px 0; }
.swagger-ui .topbar .download-url-wrapper { display: none; }
.swagger-ui .topbar-wrapper img { height: 32px; }
.swagger-ui .info .title { color: var(--fg); }
.swagger-ui .info a, .swagger-ui a { color: var(--accent); }
.swagger-ui .scheme-container { background: var(--surface); box-shadow: none; border-bottom: 1px solid var(--border); }
.swagger-ui .opblock-tag { border-bottom-color: var(--border); }
.swagger-ui .btn.authorize { color: var(--accent); border-color: var(--accent); }
.swagger-ui .btn.authorize svg { fill: var(--accent); }
@media (max-width: 640px) {
  .swagger-ui .wrapper { padding: 0 12px; }
  .swagger-ui .info { margin: 24px 0; }
  .swagger-ui .info .title { font-size: 26px; }
  .swagger-ui .opblock .opblock-summary { flex-wrap: wrap; }
  .swagger-ui .opblock .opblock-summary-path { max-width: 100%; word-break: break-all; font-size: 14px; }
  .swagger-ui .opblock .opblock-summary-description { flex-basis: 100%; padding-top: 4px; }
  .swagger-ui table { display: block; overflow-x: auto; }
  .swagger-ui .scheme-container .schemes { flex-wrap: wrap; gap: 8px; }
}
`;

function favicon(webDist: string): Buffer | null {
  try {
    return readFileSync(join(webDist, 'favicon.svg'));
  } catch {
    return null;
  }
}

/** Options for @fastify/swagger-ui: the app's logo leading back to `/`, its colours, a phone layout. */
export function referenceUiOptions(webDist: string) {
  const icon = favicon(webDist);
  return {
    logo: { type: 'image/svg+xml', content: Buffer.from(LOGO_SVG), href: '/', target: '_self' as const },
    theme: {
      title: 'Tazamun — API reference',
      css: [{ filename: 'tazamun.css', content: CSS }],
      ...(icon && {
        favicon: [
          { filename: 'favicon.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: icon },
        ],
      }),
    },
  };
}
