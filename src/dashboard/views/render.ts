import type { FastifyReply } from 'fastify';
import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';

/**
 * Sends a page. Preact escapes every text and attribute it renders, so a message's text or a
 * webhook's URL shows as text, never as markup; nothing here bypasses that (no dangerouslySetInnerHTML).
 */
export function sendPage(reply: FastifyReply, page: VNode, status?: number): FastifyReply {
  // Without a status: the one the handler set (a refused form's 422), else 200.
  return reply
    .code(status ?? reply.statusCode)
    .type('text/html; charset=utf-8')
    .send(`<!doctype html>${renderToString(page)}`);
}
