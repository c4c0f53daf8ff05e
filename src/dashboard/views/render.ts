import type { FastifyReply } from 'fastify';
import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';

/**
 * Sends a page. Preact escapes every text and attribute it renders, so a message's text or a
 * webhook's URL shows as text, never as markup; nothing here bypasses that (no dangerouslySetInnerHTML).
 */
export function sendPage(reply: FastifyReply, page: VNode, status = 200): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(`<!doctype html>${renderToString(page)}`);
}
