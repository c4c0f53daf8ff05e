import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';

/** Herald's mark: a wordmark in the reference's top bar, and the tab's icon. */
const WORDMARK =
  '<svg xmlns="http://www.w3.org/2000/svg" width="150" height="36" viewBox="0 0 150 36">' +
  '<rect width="36" height="36" rx="8" fill="#2f6fed"/>' +
  '<path d="M10 26V10h4v6h8v-6h4v16h-4v-6.5h-8V26z" fill="#fff"/>' +
  '<text x="46" y="25" font-family="Helvetica,Arial,sans-serif" font-size="20" font-weight="700" fill="#fff">Herald API</text>' +
  '</svg>';
const ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 36 36">' +
  '<rect width="36" height="36" rx="8" fill="#2f6fed"/>' +
  '<path d="M10 26V10h4v6h8v-6h4v16h-4v-6.5h-8V26z" fill="#fff"/></svg>';

/** The API reference at /docs: titled and marked as Herald's, not Swagger UI's. */
export const REFERENCE_PAGE: FastifySwaggerUiOptions = {
  routePrefix: '/docs',
  uiConfig: { docExpansion: 'list', deepLinking: true },
  logo: { type: 'image/svg+xml', content: Buffer.from(WORDMARK), href: '/docs', target: '_self' },
  theme: {
    title: 'Herald API reference',
    favicon: [{ filename: 'herald.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: Buffer.from(ICON) }],
  },
};
