/**
 * Generated from the OpenAPI document Herald serves (/openapi.json) by openapi-typescript:
 * `npm run sdk:generate`. Do not edit; the suite fails when it is not up to date
 * (sdk/test/generated.test.ts).
 */
export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness
         * @description Answers 200 while the process runs, busy or not (never shed): for an orchestrator deciding whether to restart it.
         */
        get: operations["getLiveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness
         * @description Answers 200 when the node can serve traffic (its store answers, its schema is current, it is not shutting down), else 503 with the failing checks: for a load balancer deciding whether to send it requests.
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Get an access token (OAuth 2.0 client credentials)
         * @description RFC 6749 §4.4. Authenticate with `client_secret_post` (form fields) or `client_secret_basic` (HTTP Basic). Answers carry `Cache-Control: no-store`. Errors use the OAuth body `{error, error_description}`.
         */
        post: operations["createToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the account
         * @description The account the token belongs to: its ids, name, contact email and plan.
         */
        get: operations["getAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/account/balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the credit balance
         * @description Credits on the account, credits reserved for messages not yet sent, and what is available to send with.
         */
        get: operations["getBalance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Describe the access token
         * @description Any valid token may call it. Answers with the client, account, scopes and expiry of the token sent.
         */
        get: operations["getTokenInfo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sms/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send an SMS
         * @description Reserves the cost (1 credit per segment by default) and queues the message. Errors: 422 VALIDATION_ERROR / INVALID_PHONE, 402 INSUFFICIENT_CREDITS.
         */
        post: operations["sendSms"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sms/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send one SMS to many recipients
         * @description Up to 1000 recipients in one request and one transaction. Repeated numbers collapse to one; invalid numbers are listed in `rejected` while the valid ones are queued under one `batch_id`. The cost of every accepted recipient is reserved together: without enough credits nothing is created (402). All recipients invalid: 422 INVALID_PHONE.
         */
        post: operations["sendSmsBulk"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sms/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Preview an SMS
         * @description What sending this text would do, without sending or charging: its encoding and segments, the characters that made it UCS-2 and where they are, its cost, and whether the available credits cover it now. Recipients are checked as the send checks them: 422 INVALID_PHONE for a bad `to`; with `recipients`, as a bulk send sorts them.
         */
        post: operations["previewSms"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sms/{message_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an SMS
         * @description An SMS of the account by its id: its text, status, segments, credits used, times and error. Another account's id answers 404 NOT_FOUND.
         */
        get: operations["getSms"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/whatsapp/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a WhatsApp template message
         * @description Sends an approved template, the only kind of message WhatsApp allows outside the 24 h session window. The template must exist for the account in `language` (422 TEMPLATE_NOT_FOUND, naming the languages it does exist in) and be APPROVED (422 TEMPLATE_NOT_APPROVED). Each header, body and button text needs as many parameters as it has distinct `{{n}}` placeholders (422 TEMPLATE_PARAMS_MISMATCH, saying expected and given). Costs 0.8 credits by default. Other errors: 422 VALIDATION_ERROR / INVALID_PHONE, 402 INSUFFICIENT_CREDITS.
         */
        post: operations["sendWhatsappTemplate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/whatsapp/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a WhatsApp session message
         * @description Sends free-form text, allowed only within 24 hours of the recipient's last message to the account (422 SESSION_WINDOW_CLOSED otherwise, saying when the window closed; send a template instead). Costs 0.3 credits by default. Other errors: 422 VALIDATION_ERROR / INVALID_PHONE, 402 INSUFFICIENT_CREDITS.
         */
        post: operations["sendWhatsappSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/whatsapp/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List WhatsApp templates
         * @description The account's templates, by name then language, optionally filtered. New accounts start with sandbox templates (`welcome`, `verification_code`, `order_update`, `appointment_reminder`, and `spring_sale`, which is PENDING).
         */
        get: operations["listWhatsappTemplates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/whatsapp/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Preview a WhatsApp message
         * @description What sending this template (the body of POST /v1/whatsapp/send) or session message (of POST /v1/whatsapp/session) would do, without sending or charging: its price, the text it would carry, the 24 h session window with `to`, whether `to` is suppressed, whether the available credits cover it, and the refusal the send would answer (a template check, the window, the suppression list, credits), from the send's own checks. 422 for a request the send would refuse as malformed (INVALID_PHONE, VALIDATION_ERROR).
         */
        post: operations["previewWhatsapp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/whatsapp/{message_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a WhatsApp message
         * @description What was sent (a template's body with its parameters filled in) and its status. Ids of other channels are 404.
         */
        get: operations["getWhatsappMessage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/email/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send an email
         * @description Reserves the cost (0.1 credit by default) and queues the email. `to`, `from`, `subject` and at least one of `html`/`text` are required. Opens and clicks can be tracked; see the events endpoint. Errors: 422 VALIDATION_ERROR, 413 PAYLOAD_TOO_LARGE (subject, bodies and decoded attachments over EMAIL_MAX_BYTES, 10 MiB by default), 402 INSUFFICIENT_CREDITS.
         */
        post: operations["sendEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/email/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Preview an email
         * @description What sending this email (the body of POST /v1/email/send) would do, without sending or charging: its price, its size against EMAIL_MAX_BYTES, which of `to` and cc are suppressed, whether `from` may be used, whether the available credits cover it, and the refusal the send would answer (size, `from`, suppression list, credits), from the send's own checks. 422 VALIDATION_ERROR for a body the send would refuse as malformed.
         */
        post: operations["previewEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/email/{message_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an email
         * @description What was sent (addresses, subject, which bodies, attachments by name and size; not the bodies, which may be megabytes) and its status. Ids of other channels are 404. What happened to it, opens and clicks included: `GET /v1/email/{message_id}/events`.
         */
        get: operations["getEmail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/email/{message_id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the events of an email
         * @description Everything that happened to an email, oldest first: queued, sent, delivered, bounced, failed (with the status), and opened, clicked (with `user_agent`, `ip`, and `url` for clicks) and complained.
         */
        get: operations["listEmailEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/telegram/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a Telegram message
         * @description Sends text to a chat (`to` in the response is the chat_id). Costs 0.05 credits by default. An inline keyboard (`reply_markup.inline_keyboard`) has 1 to 100 rows of 1 to 8 buttons, at most 100 buttons in all; each button has `text` (1 to 64 characters) and exactly one of `callback_data` (1 to 64 bytes of UTF-8) or `url` (http, https or tg). Errors: 422 VALIDATION_ERROR (one detail per invalid field), 402 INSUFFICIENT_CREDITS.
         */
        post: operations["sendTelegramMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/telegram/photo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a Telegram photo
         * @description Sends a photo by URL, with an optional caption of up to 1024 characters. Costs 0.1 credits by default. An inline keyboard (`reply_markup.inline_keyboard`) has 1 to 100 rows of 1 to 8 buttons, at most 100 buttons in all; each button has `text` (1 to 64 characters) and exactly one of `callback_data` (1 to 64 bytes of UTF-8) or `url` (http, https or tg). Errors: 422 VALIDATION_ERROR, 402 INSUFFICIENT_CREDITS.
         */
        post: operations["sendTelegramPhoto"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/telegram/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Preview a Telegram message
         * @description What sending this text (the body of POST /v1/telegram/send) would do, without sending or charging: its price, the length of its text as Telegram counts it (after the `parse_mode` markup is parsed) against its limit, whether the chat is suppressed, whether the available credits cover it, and the refusal the send would answer (the text's length, the suppression list, credits), from the send's own checks. 422 VALIDATION_ERROR for any other problem the send would refuse (a chat id, a keyboard), with all its problems.
         */
        post: operations["previewTelegramMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/telegram/photo/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Preview a Telegram photo
         * @description What sending this photo (the body of POST /v1/telegram/photo; a caption is its text) would do, without sending or charging: its price, the length of its text as Telegram counts it (after the `parse_mode` markup is parsed) against its limit, whether the chat is suppressed, whether the available credits cover it, and the refusal the send would answer (the text's length, the suppression list, credits), from the send's own checks. 422 VALIDATION_ERROR for any other problem the send would refuse (a chat id, a keyboard), with all its problems.
         */
        post: operations["previewTelegramPhoto"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/telegram/{message_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a Telegram message
         * @description What was sent and its status. Ids of other channels are 404.
         */
        get: operations["getTelegramMessage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List messages
         * @description The account's messages, newest first (created_at, then id), limited to the channels the token can read: those it sent, or with `direction=inbound` those it received (`status` filters sent messages only). A `channel` filter outside them is 403. An unknown query parameter is 400 INVALID_REQUEST.
         */
        get: operations["listMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/messages/{message_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get any message
         * @description A message the account sent (`direction: outbound`) or received (`inbound`). Needs the read scope of the message's channel (`sms:read` for `msg_sms_...`).
         */
        get: operations["getMessage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/messages/{message_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a message
         * @description Cancels a message no worker has taken for delivery yet (typically a scheduled one): it becomes `canceled` and its credits are released. Once a worker has taken it (even while it still waits for the provider's throughput limit): 409 MESSAGE_NOT_CANCELABLE. Needs the send scope of the message's channel (`sms:send` for `msg_sms_...`).
         */
        post: operations["cancelMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhooks
         * @description Every webhook of the account, oldest first, disabled ones included (`active: false` with `disabled_reason`).
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Register a webhook
         * @description Events of the given kinds are posted to `url`, signed with the account signing secret (`GET /v1/webhooks/secret`). A URL on a private network, or one whose host does not resolve, is 422 VALIDATION_ERROR on `url`; an unknown event kind is 422 listing the known ones. At most 20 webhooks per account (409 WEBHOOK_LIMIT_REACHED).
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the signing secret
         * @description The secret every delivery of the account is signed with (registered webhooks and `callback_url` alike); made on first use. After a rotation, `previous_secret_expires_at` says until when the old secret still signs beside it.
         */
        get: operations["getWebhookSigningSecret"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the signing secret
         * @description Makes a new signing secret and returns it. For 24 hours deliveries carry signatures by both the new and the old secret (comma-separated in `X-Service-Signature`, space-separated in `webhook-signature`), so receivers can switch without a gap. Rotating again within those 24 hours retires the older secret at once.
         */
        post: operations["rotateWebhookSigningSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a webhook
         * @description A webhook of the account by its id: its URL, the events it receives and whether it is enabled.
         */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook
         * @description Deliveries still waiting for it are canceled. Unknown, already deleted or another account’s: 404.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Re-enable a webhook
         * @description Turns a disabled webhook (410 Gone, or 3 days of failed deliveries) back on and starts its failure count afresh. Events from while it was disabled are not re-sent by this; use `POST /v1/webhooks/{webhook_id}/replay?since=`. Enabling an active webhook restarts its failure count.
         */
        post: operations["enableWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List deliveries
         * @description The webhook's deliveries, newest first: the event, attempts made, the last status code, error and latency, and the next retry. Filter by `status`. Deliveries to a `callback_url` are not listed here.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replay a delivery
         * @description Sends the delivery's event to the webhook again now, as a new delivery (202, the new delivery) with its own attempts and retries; the old one stays in the log unchanged. The event keeps its id, so receivers can deduplicate. A delivery of another webhook: 404. A disabled webhook: 409 WEBHOOK_DISABLED.
         */
        post: operations["replayWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replay failed deliveries since a time
         * @description Re-sends, as new deliveries, every event whose delivery to this webhook failed and was made at or after `since`, oldest first, at most 1000 per call (`has_more` says to call again). Events already re-sent (a pending or succeeded delivery exists) are left out, so calling twice sends nothing twice. A disabled webhook: 409 WEBHOOK_DISABLED; enable it first.
         */
        post: operations["replayWebhookDeliveries"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event
         * @description Queues a signed `webhook.test` event (`data: {webhook_id}`) to this webhook only, whatever kinds it subscribes to, through the same queue, signing, retries and log as every event. Answers 202 with the delivery; follow it in `GET /v1/webhooks/{webhook_id}/deliveries`. A disabled webhook: 409 WEBHOOK_DISABLED.
         */
        post: operations["sendWebhookTestEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/suppressions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List suppressed recipients
         * @description The account's suppression list, newest first, optionally one channel's; `next_cursor` is null on the last page.
         */
        get: operations["listSuppressions"];
        put?: never;
        /**
         * Suppress a recipient
         * @description Sends to this recipient on this channel are refused (422 RECIPIENT_SUPPRESSED, nothing charged) until the entry is removed. Adding one already on the list answers 200 with the entry kept (its first reason and time); a new one answers 201.
         */
        post: operations["createSuppression"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/suppressions/{channel}/{recipient}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a suppressed recipient
         * @description The recipient may be sent to again. URL-encode the recipient (`%2B14155552671`). Not on the list (or another account’s): 404.
         */
        delete: operations["deleteSuppression"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keyword-replies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List opt-out keywords and their confirmations
         * @description For each language: the keywords that opt a recipient out (STOP...) or back in (START...) on SMS and WhatsApp, and the confirmation the account sends for each. The language of a keyword decides which confirmation is sent.
         */
        get: operations["listKeywordReplies"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keyword-replies/{language}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set the confirmations of one language
         * @description Replaces the account's confirmations of STOP and START keywords in a language. An empty text sends no confirmation (where the carrier or a law does not require one).
         */
        put: operations["setKeywordReplies"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sandbox/inbound": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Receive a message in the sandbox
         * @description Only for channels the sandbox carries: a recipient writes to the account, and Herald takes the message as it takes a carrier's (stored, STOP/START applied, `message.received` fired). Needs the channel's send scope.
         */
        post: operations["receiveSandboxMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    messageEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An event, to a registered webhook
         * @description A signed event, posted as JSON (docs/webhooks.md). Verify the signature over the raw body before trusting it; deduplicate by `id`.
         */
        post: operations["receiveEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        Error400: {
            /** @enum {boolean} */
            success: false;
            error: {
                /**
                 * @description Stable machine-readable code; see the error catalogue in docs/errors.md.
                 * @enum {string}
                 */
                code: "INVALID_REQUEST";
                /** @description A sentence for humans; may change between versions. */
                message: string;
                /** @description One entry per invalid field. */
                details?: {
                    /** @description Dotted path of the field, e.g. `to` or `attachments.0.content`. */
                    field: string;
                    message: string;
                }[];
            };
        };
        Error401: {
            /** @enum {boolean} */
            success: false;
            error: {
                /**
                 * @description Stable machine-readable code; see the error catalogue in docs/errors.md.
                 * @enum {string}
                 */
                code: "UNAUTHORIZED";
                /** @description A sentence for humans; may change between versions. */
                message: string;
                /** @description One entry per invalid field. */
                details?: {
                    /** @description Dotted path of the field, e.g. `to` or `attachments.0.content`. */
                    field: string;
                    message: string;
                }[];
            };
        };
        Error403: {
            /** @enum {boolean} */
            success: false;
            error: {
                /**
                 * @description Stable machine-readable code; see the error catalogue in docs/errors.md.
                 * @enum {string}
                 */
                code: "INSUFFICIENT_SCOPE" | "IP_NOT_ALLOWED" | "ACCOUNT_SUSPENDED" | "HTTPS_REQUIRED";
                /** @description A sentence for humans; may change between versions. */
                message: string;
                /** @description One entry per invalid field. */
                details?: {
                    /** @description Dotted path of the field, e.g. `to` or `attachments.0.content`. */
                    field: string;
                    message: string;
                }[];
            };
        };
        Error404: {
            /** @enum {boolean} */
            success: false;
            error: {
                /**
                 * @description Stable machine-readable code; see the error catalogue in docs/errors.md.
                 * @enum {string}
                 */
                code: "NOT_FOUND";
                /** @description A sentence for humans; may change between versions. */
                message: string;
                /** @description One entry per invalid field. */
                details?: {
                    /** @description Dotted path of the field, e.g. `to` or `attachments.0.content`. */
                    field: string;
                    message: string;
                }[];
            };
        };
        Error413: {
            /** @enum {boolean} */
            success: false;
            error: {
                /**
                 * @description Stable machine-readable code; see the error catalogue in docs/errors.md.
                 * @enum {string}
                 */
                code: "PAYLOAD_TOO_LARGE";
                /** @description A sentence for humans; may change between versions. */
                message: string;
                /** @description One entry per invalid field. */
                details?: {
                    /** @description Dotted path of the field, e.g. `to` or `attachments.0.content`. */
                    field: string;
                    message: string;
                }[];
            };
        };
        Error429: {
            /** @enum {boolean} */
            success: false;
            error: {
                /**
                 * @description Stable machine-readable code; see the error catalogue in docs/errors.md.
                 * @enum {string}
                 */
                code: "RATE_LIMITED";
                /** @description A sentence for humans; may change between versions. */
                message: string;
                /** @description One entry per invalid field. */
                details?: {
                    /** @description Dotted path of the field, e.g. `to` or `attachments.0.content`. */
                    field: string;
                    message: string;
                }[];
            };
        };
        Error500: {
            /** @enum {boolean} */
            success: false;
            error: {
                /**
                 * @description Stable machine-readable code; see the error catalogue in docs/errors.md.
                 * @enum {string}
                 */
                code: "INTERNAL_ERROR";
                /** @description A sentence for humans; may change between versions. */
                message: string;
                /** @description One entry per invalid field. */
                details?: {
                    /** @description Dotted path of the field, e.g. `to` or `attachments.0.content`. */
                    field: string;
                    message: string;
                }[];
            };
        };
        /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
        Error503: {
            /** @enum {boolean} */
            success: false;
            error: {
                /**
                 * @description Stable machine-readable code; see the error catalogue in docs/errors.md.
                 * @enum {string}
                 */
                code: "SERVICE_UNAVAILABLE";
                /** @description A sentence for humans; may change between versions. */
                message: string;
                /** @description One entry per invalid field. */
                details?: {
                    /** @description Dotted path of the field, e.g. `to` or `attachments.0.content`. */
                    field: string;
                    message: string;
                }[];
            };
        };
        Error402: {
            /** @enum {boolean} */
            success: false;
            error: {
                /**
                 * @description Stable machine-readable code; see the error catalogue in docs/errors.md.
                 * @enum {string}
                 */
                code: "INSUFFICIENT_CREDITS";
                /** @description A sentence for humans; may change between versions. */
                message: string;
                /** @description One entry per invalid field. */
                details?: {
                    /** @description Dotted path of the field, e.g. `to` or `attachments.0.content`. */
                    field: string;
                    message: string;
                }[];
            };
        };
        Error409: {
            /** @enum {boolean} */
            success: false;
            error: {
                /**
                 * @description Stable machine-readable code; see the error catalogue in docs/errors.md.
                 * @enum {string}
                 */
                code: "MESSAGE_NOT_CANCELABLE" | "WEBHOOK_DISABLED" | "WEBHOOK_LIMIT_REACHED" | "IDEMPOTENCY_KEY_IN_USE";
                /** @description A sentence for humans; may change between versions. */
                message: string;
                /** @description One entry per invalid field. */
                details?: {
                    /** @description Dotted path of the field, e.g. `to` or `attachments.0.content`. */
                    field: string;
                    message: string;
                }[];
            };
        };
        Error422: {
            /** @enum {boolean} */
            success: false;
            error: {
                /**
                 * @description Stable machine-readable code; see the error catalogue in docs/errors.md.
                 * @enum {string}
                 */
                code: "VALIDATION_ERROR" | "INVALID_PHONE" | "TEMPLATE_NOT_FOUND" | "TEMPLATE_NOT_APPROVED" | "TEMPLATE_PARAMS_MISMATCH" | "SESSION_WINDOW_CLOSED" | "RECIPIENT_SUPPRESSED" | "IDEMPOTENCY_KEY_REUSED";
                /** @description A sentence for humans; may change between versions. */
                message: string;
                /** @description One entry per invalid field. */
                details?: {
                    /** @description Dotted path of the field, e.g. `to` or `attachments.0.content`. */
                    field: string;
                    message: string;
                }[];
            };
        };
        /** ProviderHealth */
        ProviderHealth: {
            channel: string;
            /** @description sandbox, smpp, smtp, bot-api or cloud-api */
            provider: string;
            /** @description Link up (SMPP), or the last hand-over reached the provider; null before any was tried */
            connected: boolean | null;
            /** @description The last error: its code alone (e.g. SMPP_NOT_BOUND); its reason is in the logs and on the operator page */
            last_error: string | null;
            last_error_at: string | null;
            /** @description Hand-overs under way now in this process */
            in_flight: number;
            /** @description Messages the provider took in the last 60 s, in this process */
            sent_last_minute: number;
            /** @description Receipts dropped because no message matched them, since start */
            unmatched_receipts: number;
            /** @description Links up, of how many (SMPP: its binds, SMPP_BINDS; with routes, of them all); the provider is connected while one is */
            links?: {
                up: number;
                total: number;
            };
            /** @description Each route of the SMS provider (`default` with a single SMPP_URL, one per SMSC with SMS_ROUTES, docs/routing.md): the provider is connected while one route is, and its messages fail over to it */
            routes?: {
                /** @description The route, as SMS_ROUTES names it (`default` with a single SMPP_URL) */
                name: string;
                /** @description At least one of its links is up */
                connected: boolean | null;
                links?: {
                    up: number;
                    total: number;
                };
                /** @description Why a link of it is down, if one is: the error code alone; its reason is in the logs */
                last_error: string | null;
            }[];
        };
        /** Account */
        Account: {
            /** @description The client the access token was issued to. */
            client_id: string;
            account_id: string;
            name: string;
            email: string;
            /** @description One of `developer`, `business`, `enterprise`. */
            plan: string;
            /**
             * Format: date-time
             * @description ISO 8601, UTC.
             */
            created_at: string;
        };
        /** Balance */
        Balance: {
            /** @description Total credits (up to 6 decimals). */
            credits: number;
            /** @description Credits held by messages not yet accepted by a provider. */
            reserved: number;
            /** @description credits − reserved: what new sends can spend. */
            available: number;
        };
        /** SendSmsRequest */
        SendSmsRequest: {
            /**
             * @description Recipient in E.164, e.g. `+14155552671`; a number that does not exist is 422 INVALID_PHONE.
             * @example +14155552671
             */
            to: string;
            /** @description Text, 1 to 1600 characters. GSM-7 text: 160 per segment, 153 each when split; otherwise UCS-2: 70 / 67. */
            message: string;
            /** @description An alphanumeric sender id (up to 11 letters or digits, a short code), or a number in E.164: one of the account’s numbers, so recipients can reply (docs/inbound.md). */
            sender?: string;
            /**
             * Format: date-time
             * @description ISO 8601 date-time; without an offset it is UTC. At most 60 s in the past and 35 days ahead. A date alone (2026-11-21) is its first moment, UTC.
             */
            scheduled_at?: string;
            /** @description Absolute http(s) URL told about this message's events. */
            callback_url?: string;
        };
        /** SmsAccepted */
        SmsAccepted: {
            /** @description `msg_sms_<id>` */
            message_id: string;
            to: string;
            /** @enum {string} */
            status: "queued";
            segments: number;
            credits_used: number;
            /**
             * Format: date-time
             * @description ISO 8601, UTC.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601, UTC.
             */
            scheduled_at?: string;
        };
        /** SendSmsBulkRequest */
        SendSmsBulkRequest: {
            /** @description E.164 numbers, 1 to 1000. Repeats collapse to one; invalid and suppressed ones are listed in `rejected` while the rest are sent (all suppressed: 422 RECIPIENT_SUPPRESSED). */
            recipients: string[];
            /** @description Text, 1 to 1600 characters. GSM-7 text: 160 per segment, 153 each when split; otherwise UCS-2: 70 / 67. */
            message: string;
            /** @description An alphanumeric sender id (up to 11 letters or digits, a short code), or a number in E.164: one of the account’s numbers, so recipients can reply (docs/inbound.md). */
            sender?: string;
            /**
             * Format: date-time
             * @description ISO 8601 date-time; without an offset it is UTC. At most 60 s in the past and 35 days ahead. A date alone (2026-11-21) is its first moment, UTC.
             */
            scheduled_at?: string;
            /** @description Absolute http(s) URL told about this message's events. */
            callback_url?: string;
        };
        /** SmsBulkAccepted */
        SmsBulkAccepted: {
            /** @description `bat_<id>` */
            batch_id: string;
            messages: {
                message_id: string;
                to: string;
                /** @enum {string} */
                status: "queued";
            }[];
            rejected: {
                to: string;
                error: {
                    /** @description INVALID_PHONE: not E.164; RECIPIENT_SUPPRESSED: on the account suppression list (docs/suppression.md). */
                    code: "INVALID_PHONE" | "RECIPIENT_SUPPRESSED";
                    message: string;
                };
            }[];
            /** @description Segments of the text, the same for every recipient. */
            segments: number;
            /** @description Total reserved for all accepted recipients. */
            credits_used: number;
            /**
             * Format: date-time
             * @description ISO 8601, UTC.
             */
            scheduled_at?: string;
        };
        /**
         * PreviewSmsRequest
         * @description The text, and either the `to` of one send or the `recipients` of a bulk send (neither: one recipient). `sender`, `scheduled_at` and `callback_url` may be given, so a send body can be previewed as it is; they do not change the price.
         */
        PreviewSmsRequest: {
            /** @description Text, 1 to 1600 characters. GSM-7 text: 160 per segment, 153 each when split; otherwise UCS-2: 70 / 67. */
            message: string;
            /**
             * @description Recipient in E.164, e.g. `+14155552671`; a number that does not exist is 422 INVALID_PHONE.
             * @example +14155552671
             */
            to?: string;
            /** @description E.164 numbers, 1 to 1000. Repeats collapse to one; invalid and suppressed ones are listed in `rejected` while the rest are sent (all suppressed: 422 RECIPIENT_SUPPRESSED). */
            recipients?: string[];
            /** @description An alphanumeric sender id (up to 11 letters or digits, a short code), or a number in E.164: one of the account’s numbers, so recipients can reply (docs/inbound.md). */
            sender?: string;
            /**
             * Format: date-time
             * @description ISO 8601 date-time; without an offset it is UTC. At most 60 s in the past and 35 days ahead. A date alone (2026-11-21) is its first moment, UTC.
             */
            scheduled_at?: string;
            /** @description Absolute http(s) URL told about this message's events. */
            callback_url?: string;
        };
        /** SmsPreview */
        SmsPreview: {
            /** @description GSM-7 when every character is in the GSM 03.38 alphabet, otherwise UCS-2. */
            encoding: "GSM-7" | "UCS-2";
            /** @description Parts the text travels in: the segments a send charges for. */
            segments: number;
            /** @description Characters of the text, counted in Unicode code points. */
            characters: number;
            /** @description Septets (GSM-7, an extension character such as € takes 2) or UTF-16 code units (UCS-2). */
            units: number;
            /** @description Room of each part: 160 / 153 septets, or 70 / 67 code units when split. */
            units_per_segment: number;
            /** @description Each character that made the text UCS-2, with its position; empty for GSM-7. */
            non_gsm_characters: {
                character: string;
                /** @description 0-based, in Unicode code points. */
                position: number;
            }[];
            /** @description What each recipient costs: segments × the segment price. */
            credits_per_message: number;
            /** @description Recipients the send would accept (1 without `recipients`, 0 when that `to` is suppressed). */
            recipients: number;
            rejected: {
                to: string;
                error: {
                    /** @description INVALID_PHONE: not E.164; RECIPIENT_SUPPRESSED: on the account suppression list (docs/suppression.md). */
                    code: "INVALID_PHONE" | "RECIPIENT_SUPPRESSED";
                    message: string;
                };
            }[];
            /** @description The whole send: credits_per_message × recipients. */
            credits: number;
            /** @description Credits available now (balance − reserved). */
            available: number;
            /** @description Whether `available` covers `credits` now; the send reserves all of it or nothing (402). */
            affordable: boolean;
        };
        /** SmsDetail */
        SmsDetail: {
            message_id: string;
            /** @enum {string} */
            channel: "sms";
            to: string;
            message: string;
            sender: string | null;
            /** @description queued → sent → delivered (→ read on WhatsApp), or failed / canceled. Never goes back. */
            status: "queued" | "sent" | "delivered" | "read" | "failed" | "canceled";
            segments: number;
            credits_used: number;
            /**
             * Format: date-time
             * @description ISO 8601, UTC.
             */
            created_at: string;
            scheduled_at: string | null;
            sent_at: string | null;
            delivered_at: string | null;
            error: {
                code: string;
                message: string;
            } | null;
            route: string | null;
        };
        /** SendWhatsappTemplateRequest */
        SendWhatsappTemplateRequest: {
            /**
             * @description Recipient's WhatsApp number in E.164, e.g. `+14155552671`; a number that does not exist is 422 INVALID_PHONE.
             * @example +14155552671
             */
            to: string;
            /**
             * @description Template name, e.g. `welcome`. `GET /v1/whatsapp/templates` lists the account's templates.
             * @example welcome
             */
            template: string;
            /**
             * @description The template's language code, e.g. `en_US`; the template must exist in it.
             * @example en_US
             */
            language: string;
            /** @description Parameters per component, WhatsApp Cloud API style: `[{"type": "body", "parameters": [{"type": "text", "text": "Ada"}]}]`. Each header, body and button text needs exactly as many parameters as it has distinct `{{n}}` placeholders. */
            components?: {
                /** @description Which part of the template the parameters fill. */
                type: "header" | "body" | "button";
                /** @description For buttons (required), the button's kind in the template: quick_reply takes one payload parameter, url text for its URL's `{{1}}`, copy_code one coupon_code. A phone_number button takes no component. */
                sub_type?: "quick_reply" | "url" | "copy_code";
                /** @description For buttons (required): which button, from 0. */
                index?: number;
                /** @description One per distinct `{{n}}` of that component's text, in order: the first fills `{{1}}`. */
                parameters?: {
                    /** @description `text` fills a `{{n}}`; `payload` is a quick_reply button's (returned when it is tapped); `coupon_code` a copy_code button's; `image`, `video`, `document` the file of a media header. */
                    type: "text" | "payload" | "coupon_code" | "image" | "video" | "document";
                    /** @description With `type: text`: the value of one `{{n}}`, 1 to 1024 characters. */
                    text?: string;
                    /** @description With `type: payload` (quick_reply buttons only), 1 to 1024 characters. */
                    payload?: string;
                    /** @description With `type: coupon_code` (copy_code buttons only): the code, 1 to 15 characters. */
                    coupon_code?: string;
                    /** @description With `type: image` (a IMAGE header only). */
                    image?: {
                        /** @description The image's public https URL, which WhatsApp fetches. */
                        link: string;
                    };
                    /** @description With `type: video` (a VIDEO header only). */
                    video?: {
                        /** @description The video's public https URL, which WhatsApp fetches. */
                        link: string;
                    };
                    /** @description With `type: document` (a DOCUMENT header only). */
                    document?: {
                        /** @description The document's public https URL, which WhatsApp fetches. */
                        link: string;
                    };
                }[];
            }[];
        };
        /** WhatsappAccepted */
        WhatsappAccepted: {
            /** @description `msg_whatsapp_<id>` */
            message_id: string;
            to: string;
            /** @enum {string} */
            status: "queued";
            credits_used: number;
            /**
             * Format: date-time
             * @description ISO 8601, UTC.
             */
            created_at: string;
        };
        /** SendWhatsappSessionRequest */
        SendWhatsappSessionRequest: {
            /**
             * @description Recipient's WhatsApp number in E.164, e.g. `+14155552671`; a number that does not exist is 422 INVALID_PHONE.
             * @example +14155552671
             */
            to: string;
            /** @description Text, 1 to 4096 characters. */
            message: string;
        };
        /** WhatsappTemplate */
        WhatsappTemplate: {
            name: string;
            language: string;
            category: "MARKETING" | "UTILITY" | "AUTHENTICATION";
            /** @description Only APPROVED templates can be sent. */
            status: "APPROVED" | "PENDING" | "REJECTED" | "PAUSED" | "DISABLED";
            components: {
                /** @description `header`, `body`, `footer` or `button`. */
                type: string;
                /** @description The text, with `{{1}}`-style parameters; a button's label; '' for a media header. */
                text: string;
                /** @description A header: IMAGE, VIDEO or DOCUMENT (its file is given at send time); absent for text. */
                format?: string;
                /** @description A button: `quick_reply`, `url`, `phone_number` or `copy_code`. */
                sub_type?: string;
                /** @description A url button: the URL it opens; a `{{1}}` at its end is filled at send time. */
                url?: string;
                /** @description A phone_number button: the number it calls. */
                phone_number?: string;
                /** @description A copy_code button: the example code shown for review. */
                example?: string;
            }[];
            /**
             * Format: date-time
             * @description ISO 8601, UTC.
             */
            created_at: string;
        };
        /**
         * PreviewWhatsappRequest
         * @description The body of POST /v1/whatsapp/send (`template`, `language`, `components`) or of POST /v1/whatsapp/session (`message`).
         */
        PreviewWhatsappRequest: {
            /**
             * @description Recipient's WhatsApp number in E.164, e.g. `+14155552671`; a number that does not exist is 422 INVALID_PHONE.
             * @example +14155552671
             */
            to: string;
            /**
             * @description Template name, e.g. `welcome`. `GET /v1/whatsapp/templates` lists the account's templates.
             * @example welcome
             */
            template?: string;
            /**
             * @description The template's language code, e.g. `en_US`; the template must exist in it.
             * @example en_US
             */
            language?: string;
            /** @description Parameters per component, WhatsApp Cloud API style: `[{"type": "body", "parameters": [{"type": "text", "text": "Ada"}]}]`. Each header, body and button text needs exactly as many parameters as it has distinct `{{n}}` placeholders. */
            components?: {
                /** @description Which part of the template the parameters fill. */
                type: "header" | "body" | "button";
                /** @description For buttons (required), the button's kind in the template: quick_reply takes one payload parameter, url text for its URL's `{{1}}`, copy_code one coupon_code. A phone_number button takes no component. */
                sub_type?: "quick_reply" | "url" | "copy_code";
                /** @description For buttons (required): which button, from 0. */
                index?: number;
                /** @description One per distinct `{{n}}` of that component's text, in order: the first fills `{{1}}`. */
                parameters?: {
                    /** @description `text` fills a `{{n}}`; `payload` is a quick_reply button's (returned when it is tapped); `coupon_code` a copy_code button's; `image`, `video`, `document` the file of a media header. */
                    type: "text" | "payload" | "coupon_code" | "image" | "video" | "document";
                    /** @description With `type: text`: the value of one `{{n}}`, 1 to 1024 characters. */
                    text?: string;
                    /** @description With `type: payload` (quick_reply buttons only), 1 to 1024 characters. */
                    payload?: string;
                    /** @description With `type: coupon_code` (copy_code buttons only): the code, 1 to 15 characters. */
                    coupon_code?: string;
                    /** @description With `type: image` (a IMAGE header only). */
                    image?: {
                        /** @description The image's public https URL, which WhatsApp fetches. */
                        link: string;
                    };
                    /** @description With `type: video` (a VIDEO header only). */
                    video?: {
                        /** @description The video's public https URL, which WhatsApp fetches. */
                        link: string;
                    };
                    /** @description With `type: document` (a DOCUMENT header only). */
                    document?: {
                        /** @description The document's public https URL, which WhatsApp fetches. */
                        link: string;
                    };
                }[];
            }[];
            /** @description Text, 1 to 4096 characters. */
            message?: string;
        };
        /** WhatsappPreview */
        WhatsappPreview: {
            type: "template" | "session";
            message: string | null;
            /** @description What the send costs: the template or the session price. */
            credits: number;
            /** @description The 24 h customer-service window with `to`: when it closes, or when it closed (null: they never wrote). */
            session_window: {
                /** @description Whether a session message may be sent now (a template needs no window). */
                open: boolean;
                closes_at: string | null;
                closed_at: string | null;
            };
            /** @description Whether `to` is on the account's WhatsApp suppression list. */
            suppressed: boolean;
            /** @description Credits available now (balance − reserved). */
            available: number;
            /** @description Whether `available` covers `credits` now. */
            affordable: boolean;
            /** @description Whether the send would be accepted now (`refusal` is null). */
            sendable: boolean;
            refusal: {
                code: string;
                message: string;
            } | null;
        };
        /** WhatsappDetail */
        WhatsappDetail: {
            message_id: string;
            /** @enum {string} */
            channel: "whatsapp";
            to: string;
            /** @description `template` (POST /v1/whatsapp/send) or `session` (POST /v1/whatsapp/session). */
            type: "template" | "session";
            /** @description The text sent: for a template, its body with the parameters filled in. */
            message: string;
            template: {
                name: string;
                language: string;
                components: {
                    type: string;
                    sub_type?: string;
                    index?: number;
                    parameters?: {
                        type: string;
                        text?: string;
                        payload?: string;
                        coupon_code?: string;
                        image?: {
                            link: string;
                        };
                        video?: {
                            link: string;
                        };
                        document?: {
                            link: string;
                        };
                    }[];
                }[];
            } | null;
            /** @description queued → sent → delivered (→ read on WhatsApp), or failed / canceled. Never goes back. */
            status: "queued" | "sent" | "delivered" | "read" | "failed" | "canceled";
            credits_used: number;
            /**
             * Format: date-time
             * @description ISO 8601, UTC.
             */
            created_at: string;
            sent_at: string | null;
            delivered_at: string | null;
            error: {
                code: string;
                message: string;
            } | null;
        };
        /** EmailAttachment */
        EmailAttachment: {
            /** @description Shown to the recipient, e.g. `invoice.pdf`. */
            filename: string;
            /** @description The file, base64-encoded (RFC 4648 standard alphabet, with `=` padding, no line breaks). */
            content: string;
            /** @description MIME type, e.g. `application/pdf`; `application/octet-stream` when left out. */
            content_type?: string;
        };
        /** SendEmailRequest */
        SendEmailRequest: {
            /**
             * @description Recipient address.
             * @example ada@example.com
             */
            to: string;
            /**
             * @description Sender address. Required: accounts have no default sender yet.
             * @example ada@example.com
             */
            from?: string;
            /** @description Sender display name, e.g. `Acme Billing`. */
            from_name?: string;
            /** @description Subject line, 1 to 998 characters. */
            subject: string;
            /** @description HTML body. At least one of `html` and `text` is required. */
            html?: string;
            /** @description Plain-text body. At least one of `html` and `text` is required. */
            text?: string;
            /**
             * @description Where replies go.
             * @example ada@example.com
             */
            reply_to?: string;
            /** @description Up to 50 cc addresses. */
            cc?: string[];
            /** @description Up to 100 files. */
            attachments?: components["schemas"]["EmailAttachment"][];
            /** @description Add a 1×1 open-tracking image to the HTML body (no effect on text-only emails). */
            track_opens?: boolean;
            /** @description Send the http(s) links of the HTML body through Herald to record clicks. */
            track_clicks?: boolean;
        };
        /** EmailAccepted */
        EmailAccepted: {
            /** @description `msg_email_<id>` */
            message_id: string;
            to: string;
            /** @enum {string} */
            status: "queued";
            credits_used: number;
            /**
             * Format: date-time
             * @description ISO 8601, UTC.
             */
            created_at: string;
        };
        /** EmailPreview */
        EmailPreview: {
            /** @description Subject, bodies and decoded attachments in bytes, as the send counts them. */
            size_bytes: number;
            /** @description EMAIL_MAX_BYTES: the send refuses a larger email (413 PAYLOAD_TOO_LARGE). */
            max_bytes: number;
            /** @description The recipients (`to` and cc) on the account's email suppression list; the send refuses any of them. */
            suppressed: string[];
            /** @description Whether `from` may be used: false when it (or its @domain) is another account's address, whose replies go there. */
            from_allowed: boolean;
            /** @description What the send costs. */
            credits: number;
            /** @description Credits available now (balance − reserved). */
            available: number;
            /** @description Whether `available` covers `credits` now. */
            affordable: boolean;
            /** @description Whether the send would be accepted now (`refusal` is null). */
            sendable: boolean;
            refusal: {
                code: string;
                message: string;
            } | null;
        };
        /** EmailDetail */
        EmailDetail: {
            /** @description `msg_email_<id>` */
            message_id: string;
            /** @enum {string} */
            channel: "email";
            to: string;
            from: string;
            from_name: string | null;
            subject: string;
            reply_to: string | null;
            cc: string[];
            /** @description Whether an HTML body was sent (the bodies themselves are not returned: they may be megabytes). */
            has_html: boolean;
            has_text: boolean;
            attachments: {
                filename: string;
                content_type: string;
                /** @description Decoded size. */
                size_bytes: number;
            }[];
            track_opens: boolean;
            track_clicks: boolean;
            /** @description queued → sent → delivered (→ read on WhatsApp), or failed / canceled. Never goes back. */
            status: "queued" | "sent" | "delivered" | "read" | "failed" | "canceled";
            credits_used: number;
            /**
             * Format: date-time
             * @description ISO 8601, UTC.
             */
            created_at: string;
            sent_at: string | null;
            delivered_at: string | null;
            error: {
                code: string;
                message: string;
            } | null;
        };
        /** SendTelegramRequest */
        SendTelegramRequest: {
            /**
             * @description The chat: its numeric id as a string (negative for groups and channels), or `@username` of a public channel. It is the message's `to`.
             * @example 123456789
             * @example -1001234567890
             * @example @herald_news
             */
            chat_id: string;
            /** @description Text: 1 to 4096 characters as Telegram counts them, after the `parse_mode` markup is parsed (markup, escapes and a link's URL do not count; an emoji outside the BMP counts 2, as UTF-16 does). With its markup, up to 32768 characters. */
            message: string;
            /** @description How Telegram reads formatting in the text: `Markdown`, `MarkdownV2` or `HTML`. Plain text when absent. */
            parse_mode?: "Markdown" | "MarkdownV2" | "HTML";
            /** @description Deliver silently: no sound on the recipient's device. */
            disable_notification?: boolean;
            /** @description An inline keyboard shown under the message. */
            reply_markup?: {
                /** @description Rows of buttons; at most 100 buttons in all. */
                inline_keyboard: {
                    /** @description Label, 1 to 64 characters. */
                    text: string;
                    /** @description Sent back to your bot when the button is pressed; 1 to 64 bytes of UTF-8 (an emoji takes 4). */
                    callback_data?: string;
                    /** @description Opened when pressed. */
                    url?: string;
                }[][];
            };
        };
        /** TelegramAccepted */
        TelegramAccepted: {
            /** @description `msg_telegram_<id>` */
            message_id: string;
            /** @description The chat_id. */
            to: string;
            /** @enum {string} */
            status: "queued";
            credits_used: number;
            /**
             * Format: date-time
             * @description ISO 8601, UTC.
             */
            created_at: string;
        };
        /** SendTelegramPhotoRequest */
        SendTelegramPhotoRequest: {
            /**
             * @description The chat: its numeric id as a string (negative for groups and channels), or `@username` of a public channel. It is the message's `to`.
             * @example 123456789
             * @example -1001234567890
             * @example @herald_news
             */
            chat_id: string;
            /** @description Absolute http(s) URL of the photo; Telegram fetches it. */
            photo_url: string;
            /** @description Up to 1024 characters as Telegram counts them, after the `parse_mode` markup is parsed; with its markup, up to 8192. */
            caption?: string;
            /** @description How Telegram reads formatting in the text: `Markdown`, `MarkdownV2` or `HTML`. Plain text when absent. */
            parse_mode?: "Markdown" | "MarkdownV2" | "HTML";
            /** @description Deliver silently: no sound on the recipient's device. */
            disable_notification?: boolean;
            /** @description An inline keyboard shown under the message. */
            reply_markup?: {
                /** @description Rows of buttons; at most 100 buttons in all. */
                inline_keyboard: {
                    /** @description Label, 1 to 64 characters. */
                    text: string;
                    /** @description Sent back to your bot when the button is pressed; 1 to 64 bytes of UTF-8 (an emoji takes 4). */
                    callback_data?: string;
                    /** @description Opened when pressed. */
                    url?: string;
                }[][];
            };
        };
        /** TelegramPreview */
        TelegramPreview: {
            /** @description The text's (a photo's caption's) length as Telegram counts it: UTF-16 code units after the `parse_mode` markup is parsed. */
            length: number;
            /** @description Its limit: 4096 for a text, 1024 for a caption; the send refuses a longer one (422). */
            limit: number;
            /** @description Whether the `parse_mode` markup parses; when not, the send is accepted but Telegram refuses the message (can't parse entities). */
            markup_parses: boolean;
            /** @description Whether the chat is on the account's Telegram suppression list. */
            suppressed: boolean;
            /** @description What the send costs. */
            credits: number;
            /** @description Credits available now (balance − reserved). */
            available: number;
            /** @description Whether `available` covers `credits` now. */
            affordable: boolean;
            /** @description Whether the send would be accepted now (`refusal` is null). */
            sendable: boolean;
            refusal: {
                code: string;
                message: string;
            } | null;
        };
        /** TelegramDetail */
        TelegramDetail: {
            message_id: string;
            /** @enum {string} */
            channel: "telegram";
            /** @description The chat_id. */
            to: string;
            type: "message" | "photo";
            message: string | null;
            photo_url: string | null;
            parse_mode: ("Markdown" | "MarkdownV2" | "HTML") | null;
            disable_notification: boolean;
            reply_markup: {
                inline_keyboard: {
                    text: string;
                    callback_data?: string;
                    url?: string;
                }[][];
            } | null;
            /** @description queued → sent → delivered (→ read on WhatsApp), or failed / canceled. Never goes back. */
            status: "queued" | "sent" | "delivered" | "read" | "failed" | "canceled";
            credits_used: number;
            /**
             * Format: date-time
             * @description ISO 8601, UTC.
             */
            created_at: string;
            sent_at: string | null;
            delivered_at: string | null;
            error: {
                code: string;
                message: string;
            } | null;
        };
        /** StatusChange */
        StatusChange: {
            /** @description queued → sent → delivered (→ read on WhatsApp), or failed / canceled. Never goes back. */
            status: "queued" | "sent" | "delivered" | "read" | "failed" | "canceled";
            /**
             * Format: date-time
             * @description ISO 8601, UTC.
             */
            timestamp: string;
            /** @description Context such as a provider code. */
            detail?: string;
        };
        /** InboundMessage */
        InboundMessage: {
            /** @description `msg_<channel>_<id>`, like the messages the account sends. */
            message_id: string;
            /** @enum {string} */
            direction: "inbound";
            /** @description The channel it came on: `sms`, `whatsapp`, `email`, `telegram`. */
            channel: string;
            /** @description Who wrote: E.164 for SMS and WhatsApp, the chat id for Telegram, the address for email. */
            from: string;
            /** @description The account's number, sender id, bot (`@username`) or email address it was sent to. */
            to: string;
            /** @description The message's text (SMS parts joined; an email's plain-text body). */
            text: string;
            /** @description What the channel adds: `subject`, `message_id` (the email's Message-ID), `in_reply_to`, `references`, `attachments` (counted, not kept) and `truncated` for email; `username`, `first_name` and `chat_type` for Telegram; `type`, `profile_name`, `payload` (the button or list item chosen), `context_id` (the wamid answered) and `in_reply_to` (Herald's id of that message, when this account sent it) for WhatsApp; `parts` for a long SMS. */
            details: {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @description ISO 8601, UTC.
             */
            received_at: string;
            /**
             * Format: date-time
             * @description ISO 8601, UTC.
             */
            created_at: string;
        };
        /** RegisterWebhookRequest */
        RegisterWebhookRequest: {
            /**
             * @description Absolute http(s) URL that receives the events. Refused (422) when its host is, or resolves to, a loopback, private, link-local, CGNAT, multicast, reserved or cloud-metadata address, unless the server runs with `WEBHOOKS_ALLOW_PRIVATE_NETWORKS=true`. Checked again before every delivery.
             * @example https://example.com/herald/events
             */
            url: string;
            /** @description The kinds to receive, e.g. `["message.delivered", "message.failed"]`, or `["*"]` for all. */
            events: ("message.sent" | "message.delivered" | "message.read" | "message.failed" | "message.canceled" | "email.opened" | "email.clicked" | "email.bounced" | "email.complained" | "message.received" | "suppression.created" | "suppression.deleted" | "*")[];
            /** @description A note for people, up to 500 characters. */
            description?: string;
        };
        /** Webhook */
        Webhook: {
            /** @description `wh_<id>` */
            webhook_id: string;
            url: string;
            events: string[];
            description: string | null;
            /** @description False once disabled (410 Gone, or 3 days of failed deliveries); see `disabled_reason`. */
            active: boolean;
            disabled_reason: string | null;
            /**
             * Format: date-time
             * @description ISO 8601, UTC.
             */
            created_at: string;
        };
        /** WebhookSigningSecret */
        WebhookSigningSecret: {
            /** @description `whsec_` and the base64 of 32 random bytes; the HMAC key is the decoded part. */
            secret: string;
            /**
             * Format: date-time
             * @description After a rotation: until when the previous secret still signs beside this one.
             */
            previous_secret_expires_at?: string;
        };
        /** WebhookDelivery */
        WebhookDelivery: {
            /** @description `whd_<id>` */
            delivery_id: string;
            /** @description `evt_<id>`; the same for every delivery and replay of one event (the `webhook-id` header). */
            event_id: string;
            event_type: string;
            /** @description `pending` (waiting for its first attempt or a retry), `succeeded` (a 2xx), `failed` (gave up, or the webhook was disabled), `canceled` (the webhook was deleted first). */
            status: "pending" | "succeeded" | "failed" | "canceled";
            /** @description Attempts made so far. */
            attempts: number;
            last_status_code: number | null;
            last_error: string | null;
            last_latency_ms: number | null;
            last_attempt_at: string | null;
            next_attempt_at: string | null;
            /**
             * Format: date-time
             * @description ISO 8601, UTC.
             */
            created_at: string;
        };
        /** Suppression */
        Suppression: {
            channel: "sms" | "whatsapp" | "email" | "telegram";
            /** @description E.164 for sms and whatsapp, the address (lower-cased) for email, the chat id for telegram. */
            recipient: string;
            /** @description opt_out, hard_bounce, complaint, blocked (the bot was blocked), manual. */
            reason: "opt_out" | "hard_bounce" | "complaint" | "blocked" | "manual";
            /** @description Where it came from: the API or dashboard, or what the channel reported. */
            source: "api" | "dashboard" | "email_bounce" | "email_complaint" | "email_unsubscribe" | "telegram_blocked" | "whatsapp_opt_out" | "inbound";
            note: string | null;
            /**
             * Format: date-time
             * @description ISO 8601, UTC.
             */
            created_at: string;
        };
        /** KeywordLanguage */
        KeywordLanguage: {
            /** @description en, es, fr or de. */
            language: string;
            /** @description Messages that are one of these words alone put the writer on the suppression list. */
            stop_keywords: string[];
            /** @description Messages that are one of these words alone take an opt-out off the list. */
            start_keywords: string[];
            /** @description The confirmation sent after a STOP keyword; '' sends none. */
            stop_reply: string;
            /** @description The confirmation sent after a START keyword; '' sends none. */
            start_reply: string;
            /** @description Whether the account set these confirmations (else they are Herald's). */
            custom: boolean;
        };
        /** WebhookEvent */
        WebhookEvent: {
            /** @description `evt_<id>`: the same for every retry and replay of the event; deduplicate by it. */
            id: string;
            /** @description The kind of event (docs/webhooks.md, "Event kinds"). */
            type: "message.sent" | "message.delivered" | "message.read" | "message.failed" | "message.canceled" | "email.opened" | "email.clicked" | "email.bounced" | "email.complained";
            /**
             * Format: date-time
             * @description ISO 8601, UTC.
             */
            created_at: string;
            data: {
                message_id: string;
                /** @description The channel of the message: `sms`, `whatsapp`, `email`, `telegram`. */
                channel: string;
                to: string;
                /** @description queued → sent → delivered (→ read on WhatsApp), or failed / canceled. Never goes back. */
                status: "queued" | "sent" | "delivered" | "read" | "failed" | "canceled";
                /** @description Counts the message's events (1, 2...): sort by it when order matters. */
                sequence: number;
                /** @description Why it failed (`message.failed`), or HANDOVER_UNCONFIRMED on a `message.sent` whose hand-over was interrupted. */
                error?: {
                    code: string;
                    message: string;
                };
                /** @description email.opened and email.clicked: the reader's user agent. */
                user_agent?: string;
                /** @description email.opened and email.clicked: the address the request came from. */
                ip?: string;
                /** @description email.clicked: the link followed. */
                url?: string;
            };
        } | {
            /** @description `evt_<id>`: the same for every retry and replay of the event; deduplicate by it. */
            id: string;
            /** @constant */
            type: "message.received";
            /**
             * Format: date-time
             * @description ISO 8601, UTC.
             */
            created_at: string;
            /** InboundMessage */
            data: {
                /** @description `msg_<channel>_<id>`, like the messages the account sends. */
                message_id: string;
                /** @constant */
                direction: "inbound";
                /** @description The channel it came on: `sms`, `whatsapp`, `email`, `telegram`. */
                channel: string;
                /** @description Who wrote: E.164 for SMS and WhatsApp, the chat id for Telegram, the address for email. */
                from: string;
                /** @description The account's number, sender id, bot (`@username`) or email address it was sent to. */
                to: string;
                /** @description The message's text (SMS parts joined; an email's plain-text body). */
                text: string;
                /** @description What the channel adds: `subject`, `message_id` (the email's Message-ID), `in_reply_to`, `references`, `attachments` (counted, not kept) and `truncated` for email; `username`, `first_name` and `chat_type` for Telegram; `type`, `profile_name`, `payload` (the button or list item chosen), `context_id` (the wamid answered) and `in_reply_to` (Herald's id of that message, when this account sent it) for WhatsApp; `parts` for a long SMS. */
                details: {
                    [key: string]: unknown;
                };
                /**
                 * Format: date-time
                 * @description ISO 8601, UTC.
                 */
                received_at: string;
                /**
                 * Format: date-time
                 * @description ISO 8601, UTC.
                 */
                created_at: string;
            };
        } | {
            /** @description `evt_<id>`: the same for every retry and replay of the event; deduplicate by it. */
            id: string;
            type: "suppression.created" | "suppression.deleted";
            /**
             * Format: date-time
             * @description ISO 8601, UTC.
             */
            created_at: string;
            data: {
                channel: string;
                recipient: string;
                /** @description `opt_out`, `hard_bounce`, `complaint`, `blocked` or `manual`. */
                reason: string;
                /** @description What made the change: `api`, `dashboard`, `inbound` (a STOP or START keyword), `email_bounce`, `email_complaint`, `email_unsubscribe`, `telegram_blocked`, `whatsapp_opt_out`. */
                source: string;
                /**
                 * Format: date-time
                 * @description ISO 8601, UTC.
                 */
                created_at: string;
            };
        } | {
            id: string;
            /** @constant */
            type: "webhook.test";
            /**
             * Format: date-time
             * @description ISO 8601, UTC.
             */
            created_at: string;
            data: {
                webhook_id: string;
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getLiveness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        status: "ok" | "unavailable" | "draining";
                        checks?: {
                            [key: string]: string;
                        };
                        providers?: components["schemas"]["ProviderHealth"][];
                    };
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        status: "ok" | "unavailable" | "draining";
                        checks?: {
                            [key: string]: string;
                        };
                        providers?: components["schemas"]["ProviderHealth"][];
                    };
                };
            };
            /** @description Not ready: the store does not answer, a migration is pending, or the node is draining (`status` and `checks` say which) */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        status: "ok" | "unavailable" | "draining";
                        checks?: {
                            [key: string]: string;
                        };
                        providers?: components["schemas"]["ProviderHealth"][];
                    };
                };
            };
        };
    };
    createToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    /**
                     * @description Must be `client_credentials`.
                     * @enum {string}
                     */
                    grant_type: "client_credentials";
                    /** @description With client_secret_post; or use HTTP Basic. */
                    client_id?: string;
                    /** @description With client_secret_post; or use HTTP Basic. */
                    client_secret?: string;
                    /** @description Space-separated scopes; all the client may have when omitted or empty (the account's, unless the client was limited). */
                    scope?: string;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description A signed JWT (RFC 9068); send it as `Authorization: Bearer <token>`. */
                        access_token: string;
                        /** @enum {string} */
                        token_type: "Bearer";
                        /** @description Seconds of validity: 3600 unless the operator set ACCESS_TOKEN_TTL_SECONDS. */
                        expires_in: number;
                        /** @description Space-separated scopes granted. */
                        scope: string;
                    };
                };
            };
            /** @description The request is malformed */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: "invalid_request" | "invalid_client" | "unauthorized_client" | "slow_down" | "unsupported_grant_type" | "invalid_scope" | "server_error" | "temporarily_unavailable";
                        error_description: string;
                        /** @description Herald's own code for a refusal the API would give too (ACCOUNT_SUSPENDED, IP_NOT_ALLOWED, RATE_LIMITED, SERVICE_UNAVAILABLE, HTTPS_REQUIRED), as `error.code` in the API's envelope: an extension member, which OAuth clients ignore */
                        code?: string;
                    };
                };
            };
            /** @description No valid access token */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: "invalid_request" | "invalid_client" | "unauthorized_client" | "slow_down" | "unsupported_grant_type" | "invalid_scope" | "server_error" | "temporarily_unavailable";
                        error_description: string;
                        /** @description Herald's own code for a refusal the API would give too (ACCOUNT_SUSPENDED, IP_NOT_ALLOWED, RATE_LIMITED, SERVICE_UNAVAILABLE, HTTPS_REQUIRED), as `error.code` in the API's envelope: an extension member, which OAuth clients ignore */
                        code?: string;
                    };
                };
            };
            /** @description Not allowed to this token or address */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: "invalid_request" | "invalid_client" | "unauthorized_client" | "slow_down" | "unsupported_grant_type" | "invalid_scope" | "server_error" | "temporarily_unavailable";
                        error_description: string;
                        /** @description Herald's own code for a refusal the API would give too (ACCOUNT_SUSPENDED, IP_NOT_ALLOWED, RATE_LIMITED, SERVICE_UNAVAILABLE, HTTPS_REQUIRED), as `error.code` in the API's envelope: an extension member, which OAuth clients ignore */
                        code?: string;
                    };
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: "invalid_request" | "invalid_client" | "unauthorized_client" | "slow_down" | "unsupported_grant_type" | "invalid_scope" | "server_error" | "temporarily_unavailable";
                        error_description: string;
                        /** @description Herald's own code for a refusal the API would give too (ACCOUNT_SUSPENDED, IP_NOT_ALLOWED, RATE_LIMITED, SERVICE_UNAVAILABLE, HTTPS_REQUIRED), as `error.code` in the API's envelope: an extension member, which OAuth clients ignore */
                        code?: string;
                    };
                };
            };
            /** @description A failure on our side */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: "invalid_request" | "invalid_client" | "unauthorized_client" | "slow_down" | "unsupported_grant_type" | "invalid_scope" | "server_error" | "temporarily_unavailable";
                        error_description: string;
                        /** @description Herald's own code for a refusal the API would give too (ACCOUNT_SUSPENDED, IP_NOT_ALLOWED, RATE_LIMITED, SERVICE_UNAVAILABLE, HTTPS_REQUIRED), as `error.code` in the API's envelope: an extension member, which OAuth clients ignore */
                        code?: string;
                    };
                };
            };
            /** @description Shutting down or overloaded: nothing was done */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: "invalid_request" | "invalid_client" | "unauthorized_client" | "slow_down" | "unsupported_grant_type" | "invalid_scope" | "server_error" | "temporarily_unavailable";
                        error_description: string;
                        /** @description Herald's own code for a refusal the API would give too (ACCOUNT_SUSPENDED, IP_NOT_ALLOWED, RATE_LIMITED, SERVICE_UNAVAILABLE, HTTPS_REQUIRED), as `error.code` in the API's envelope: an extension member, which OAuth clients ignore */
                        code?: string;
                    };
                };
            };
        };
    };
    getAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: components["schemas"]["Account"];
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description Not found: NOT_FOUND */
            404: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error404"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    getBalance: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: components["schemas"]["Balance"];
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description Not found: NOT_FOUND */
            404: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error404"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    getTokenInfo: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            client_id: string;
                            account_id: string;
                            /** @description The scopes the token holds, sorted. */
                            scopes: string[];
                            /**
                             * Format: date-time
                             * @description ISO 8601, UTC.
                             */
                            expires_at: string;
                        };
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    sendSms: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first request with a key runs, and for 24 h a retry with the same key, path and body gets the same response (header `Idempotent-Replayed: true`) without running again. A different request with the key → 422 IDEMPOTENCY_KEY_REUSED; while the first still runs → 409 IDEMPOTENCY_KEY_IN_USE. Keys belong to the account; 1 to 255 visible ASCII characters, e.g. a UUID.
                 * @example 5f0c7a0e-2b8b-4f7e-9d8e-4b8a9c6a1f3d
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "to": "+14155552671",
                 *       "message": "Your code is 123456",
                 *       "sender": "Acme",
                 *       "callback_url": "https://example.com/herald/events"
                 *     }
                 */
                "application/json": components["schemas"]["SendSmsRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: components["schemas"]["SmsAccepted"];
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not enough credits: INSUFFICIENT_CREDITS */
            402: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error402"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description In conflict with the current state: MESSAGE_NOT_CANCELABLE, WEBHOOK_DISABLED, WEBHOOK_LIMIT_REACHED, IDEMPOTENCY_KEY_IN_USE */
            409: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error409"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    sendSmsBulk: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first request with a key runs, and for 24 h a retry with the same key, path and body gets the same response (header `Idempotent-Replayed: true`) without running again. A different request with the key → 422 IDEMPOTENCY_KEY_REUSED; while the first still runs → 409 IDEMPOTENCY_KEY_IN_USE. Keys belong to the account; 1 to 255 visible ASCII characters, e.g. a UUID.
                 * @example 5f0c7a0e-2b8b-4f7e-9d8e-4b8a9c6a1f3d
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "recipients": [
                 *         "+14155552671",
                 *         "+447911123456"
                 *       ],
                 *       "message": "The store opens at 9 tomorrow.",
                 *       "sender": "Acme"
                 *     }
                 */
                "application/json": components["schemas"]["SendSmsBulkRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: components["schemas"]["SmsBulkAccepted"];
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not enough credits: INSUFFICIENT_CREDITS */
            402: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error402"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description In conflict with the current state: MESSAGE_NOT_CANCELABLE, WEBHOOK_DISABLED, WEBHOOK_LIMIT_REACHED, IDEMPOTENCY_KEY_IN_USE */
            409: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error409"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    previewSms: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The text, and either the `to` of one send or the `recipients` of a bulk send (neither: one recipient). `sender`, `scheduled_at` and `callback_url` may be given, so a send body can be previewed as it is; they do not change the price. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "to": "+14155552671",
                 *       "message": "Your code is 123456 – valid for 10 minutes"
                 *     }
                 */
                "application/json": components["schemas"]["PreviewSmsRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: components["schemas"]["SmsPreview"];
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    getSms: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A message id, `msg_<channel>_<id>`. */
                message_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: components["schemas"]["SmsDetail"];
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description Not found: NOT_FOUND */
            404: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error404"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    sendWhatsappTemplate: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first request with a key runs, and for 24 h a retry with the same key, path and body gets the same response (header `Idempotent-Replayed: true`) without running again. A different request with the key → 422 IDEMPOTENCY_KEY_REUSED; while the first still runs → 409 IDEMPOTENCY_KEY_IN_USE. Keys belong to the account; 1 to 255 visible ASCII characters, e.g. a UUID.
                 * @example 5f0c7a0e-2b8b-4f7e-9d8e-4b8a9c6a1f3d
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "to": "+14155552671",
                 *       "template": "welcome",
                 *       "language": "en_US",
                 *       "components": [
                 *         {
                 *           "type": "body",
                 *           "parameters": [
                 *             {
                 *               "type": "text",
                 *               "text": "Ada"
                 *             }
                 *           ]
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["SendWhatsappTemplateRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: components["schemas"]["WhatsappAccepted"];
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not enough credits: INSUFFICIENT_CREDITS */
            402: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error402"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description In conflict with the current state: MESSAGE_NOT_CANCELABLE, WEBHOOK_DISABLED, WEBHOOK_LIMIT_REACHED, IDEMPOTENCY_KEY_IN_USE */
            409: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error409"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    sendWhatsappSession: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first request with a key runs, and for 24 h a retry with the same key, path and body gets the same response (header `Idempotent-Replayed: true`) without running again. A different request with the key → 422 IDEMPOTENCY_KEY_REUSED; while the first still runs → 409 IDEMPOTENCY_KEY_IN_USE. Keys belong to the account; 1 to 255 visible ASCII characters, e.g. a UUID.
                 * @example 5f0c7a0e-2b8b-4f7e-9d8e-4b8a9c6a1f3d
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "to": "+14155552671",
                 *       "message": "Thanks, your appointment is confirmed for Tuesday at 10:00."
                 *     }
                 */
                "application/json": components["schemas"]["SendWhatsappSessionRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: components["schemas"]["WhatsappAccepted"];
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not enough credits: INSUFFICIENT_CREDITS */
            402: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error402"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description In conflict with the current state: MESSAGE_NOT_CANCELABLE, WEBHOOK_DISABLED, WEBHOOK_LIMIT_REACHED, IDEMPOTENCY_KEY_IN_USE */
            409: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error409"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    listWhatsappTemplates: {
        parameters: {
            query?: {
                /** @description Only this template name. */
                name?: string;
                /** @description Only this language. */
                language?: string;
                /** @description Only templates in this status. */
                status?: "APPROVED" | "PENDING" | "REJECTED" | "PAUSED" | "DISABLED";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            templates: components["schemas"]["WhatsappTemplate"][];
                        };
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    previewWhatsapp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The body of POST /v1/whatsapp/send (`template`, `language`, `components`) or of POST /v1/whatsapp/session (`message`). */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "to": "+14155552671",
                 *       "message": "Your table is ready."
                 *     }
                 */
                "application/json": components["schemas"]["PreviewWhatsappRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: components["schemas"]["WhatsappPreview"];
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    getWhatsappMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A message id, `msg_<channel>_<id>`. */
                message_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: components["schemas"]["WhatsappDetail"];
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description Not found: NOT_FOUND */
            404: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error404"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    sendEmail: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first request with a key runs, and for 24 h a retry with the same key, path and body gets the same response (header `Idempotent-Replayed: true`) without running again. A different request with the key → 422 IDEMPOTENCY_KEY_REUSED; while the first still runs → 409 IDEMPOTENCY_KEY_IN_USE. Keys belong to the account; 1 to 255 visible ASCII characters, e.g. a UUID.
                 * @example 5f0c7a0e-2b8b-4f7e-9d8e-4b8a9c6a1f3d
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "to": "ada@example.com",
                 *       "from": "orders@acme.example",
                 *       "from_name": "Acme",
                 *       "subject": "Your order has shipped",
                 *       "text": "Your order #1042 is on its way.",
                 *       "html": "<p>Your order <b>#1042</b> is on its way.</p>"
                 *     }
                 */
                "application/json": components["schemas"]["SendEmailRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: components["schemas"]["EmailAccepted"];
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not enough credits: INSUFFICIENT_CREDITS */
            402: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error402"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description In conflict with the current state: MESSAGE_NOT_CANCELABLE, WEBHOOK_DISABLED, WEBHOOK_LIMIT_REACHED, IDEMPOTENCY_KEY_IN_USE */
            409: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error409"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    previewEmail: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "to": "ada@example.com",
                 *       "from": "orders@acme.example",
                 *       "from_name": "Acme",
                 *       "subject": "Your order has shipped",
                 *       "text": "Your order #1042 is on its way.",
                 *       "html": "<p>Your order <b>#1042</b> is on its way.</p>"
                 *     }
                 */
                "application/json": components["schemas"]["SendEmailRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: components["schemas"]["EmailPreview"];
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    getEmail: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A message id, `msg_<channel>_<id>`. */
                message_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: components["schemas"]["EmailDetail"];
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description Not found: NOT_FOUND */
            404: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error404"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    listEmailEvents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A message id, `msg_<channel>_<id>`. */
                message_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            message_id: string;
                            /** @description Oldest first. */
                            events: {
                                /** @description queued, sent, delivered, bounced and failed follow the status; opened, clicked and complained are events only. */
                                type: "queued" | "sent" | "delivered" | "opened" | "clicked" | "bounced" | "complained" | "failed";
                                /**
                                 * Format: date-time
                                 * @description ISO 8601, UTC.
                                 */
                                timestamp: string;
                                /** @description `{user_agent, ip}` for opened and clicked, plus `url` for clicked; `{code, message}` for bounced and failed. */
                                data?: {
                                    user_agent?: string | null;
                                    ip?: string;
                                    /** @description The link clicked. */
                                    url?: string;
                                    /** @description Why it bounced or failed, e.g. `BOUNCED`. */
                                    code?: string;
                                    message?: string;
                                };
                            }[];
                        };
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description Not found: NOT_FOUND */
            404: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error404"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    sendTelegramMessage: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first request with a key runs, and for 24 h a retry with the same key, path and body gets the same response (header `Idempotent-Replayed: true`) without running again. A different request with the key → 422 IDEMPOTENCY_KEY_REUSED; while the first still runs → 409 IDEMPOTENCY_KEY_IN_USE. Keys belong to the account; 1 to 255 visible ASCII characters, e.g. a UUID.
                 * @example 5f0c7a0e-2b8b-4f7e-9d8e-4b8a9c6a1f3d
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "chat_id": "123456789",
                 *       "message": "Your order #1042 has shipped."
                 *     }
                 */
                "application/json": components["schemas"]["SendTelegramRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: components["schemas"]["TelegramAccepted"];
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not enough credits: INSUFFICIENT_CREDITS */
            402: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error402"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description In conflict with the current state: MESSAGE_NOT_CANCELABLE, WEBHOOK_DISABLED, WEBHOOK_LIMIT_REACHED, IDEMPOTENCY_KEY_IN_USE */
            409: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error409"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    sendTelegramPhoto: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first request with a key runs, and for 24 h a retry with the same key, path and body gets the same response (header `Idempotent-Replayed: true`) without running again. A different request with the key → 422 IDEMPOTENCY_KEY_REUSED; while the first still runs → 409 IDEMPOTENCY_KEY_IN_USE. Keys belong to the account; 1 to 255 visible ASCII characters, e.g. a UUID.
                 * @example 5f0c7a0e-2b8b-4f7e-9d8e-4b8a9c6a1f3d
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "chat_id": "123456789",
                 *       "photo_url": "https://example.com/receipts/1042.png",
                 *       "caption": "Your receipt"
                 *     }
                 */
                "application/json": components["schemas"]["SendTelegramPhotoRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: components["schemas"]["TelegramAccepted"];
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not enough credits: INSUFFICIENT_CREDITS */
            402: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error402"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description In conflict with the current state: MESSAGE_NOT_CANCELABLE, WEBHOOK_DISABLED, WEBHOOK_LIMIT_REACHED, IDEMPOTENCY_KEY_IN_USE */
            409: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error409"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    previewTelegramMessage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "chat_id": "123456789",
                 *       "message": "Your order #1042 has shipped."
                 *     }
                 */
                "application/json": components["schemas"]["SendTelegramRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: components["schemas"]["TelegramPreview"];
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    previewTelegramPhoto: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "chat_id": "123456789",
                 *       "photo_url": "https://example.com/receipts/1042.png",
                 *       "caption": "Your receipt"
                 *     }
                 */
                "application/json": components["schemas"]["SendTelegramPhotoRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: components["schemas"]["TelegramPreview"];
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    getTelegramMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A message id, `msg_<channel>_<id>`. */
                message_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: components["schemas"]["TelegramDetail"];
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description Not found: NOT_FOUND */
            404: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error404"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    listMessages: {
        parameters: {
            query?: {
                /** @description `outbound` (the default): messages the account sent. `inbound`: messages recipients sent to it (docs/inbound.md). */
                direction?: "outbound" | "inbound";
                channel?: "sms" | "whatsapp" | "email" | "telegram";
                /** @description queued → sent → delivered (→ read on WhatsApp), or failed / canceled. Never goes back. */
                status?: "queued" | "sent" | "delivered" | "read" | "failed" | "canceled";
                /** @description created_at at or after this time (inclusive). */
                from?: string;
                /** @description created_at before this time (exclusive). */
                to?: string;
                /** @description Results per page, 1 to 100. */
                limit?: number;
                /** @description Results to skip. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** @description Sent messages (`direction: outbound`) or, with `direction=inbound`, received ones. */
                            messages: ({
                                message_id: string;
                                /**
                                 * @description Sent by the account; received messages are `inbound` (InboundMessage).
                                 * @enum {string}
                                 */
                                direction: "outbound";
                                channel: "sms" | "whatsapp" | "email" | "telegram";
                                to: string;
                                /** @description queued → sent → delivered (→ read on WhatsApp), or failed / canceled. Never goes back. */
                                status: "queued" | "sent" | "delivered" | "read" | "failed" | "canceled";
                                status_history: components["schemas"]["StatusChange"][];
                                credits_used: number;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601, UTC.
                                 */
                                created_at: string;
                                scheduled_at: string | null;
                                error: {
                                    code: string;
                                    message: string;
                                } | null;
                                route: string | null;
                            } | components["schemas"]["InboundMessage"])[];
                            pagination: {
                                /** @description Messages matching the filters. */
                                total: number;
                                limit: number;
                                offset: number;
                                /** @description Whether a page follows this one. */
                                has_more: boolean;
                            };
                        };
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    getMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A message id, `msg_<channel>_<id>`. */
                message_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            message_id: string;
                            /**
                             * @description Sent by the account; received messages are `inbound` (InboundMessage).
                             * @enum {string}
                             */
                            direction: "outbound";
                            channel: "sms" | "whatsapp" | "email" | "telegram";
                            to: string;
                            /** @description queued → sent → delivered (→ read on WhatsApp), or failed / canceled. Never goes back. */
                            status: "queued" | "sent" | "delivered" | "read" | "failed" | "canceled";
                            status_history: components["schemas"]["StatusChange"][];
                            credits_used: number;
                            /**
                             * Format: date-time
                             * @description ISO 8601, UTC.
                             */
                            created_at: string;
                            scheduled_at: string | null;
                            error: {
                                code: string;
                                message: string;
                            } | null;
                            route: string | null;
                        } | components["schemas"]["InboundMessage"];
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description Not found: NOT_FOUND */
            404: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error404"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    cancelMessage: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first request with a key runs, and for 24 h a retry with the same key, path and body gets the same response (header `Idempotent-Replayed: true`) without running again. A different request with the key → 422 IDEMPOTENCY_KEY_REUSED; while the first still runs → 409 IDEMPOTENCY_KEY_IN_USE. Keys belong to the account; 1 to 255 visible ASCII characters, e.g. a UUID.
                 * @example 5f0c7a0e-2b8b-4f7e-9d8e-4b8a9c6a1f3d
                 */
                "idempotency-key"?: string;
            };
            path: {
                /** @description A message id, `msg_<channel>_<id>`. */
                message_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            message_id: string;
                            /**
                             * @description Sent by the account; received messages are `inbound` (InboundMessage).
                             * @enum {string}
                             */
                            direction: "outbound";
                            channel: "sms" | "whatsapp" | "email" | "telegram";
                            to: string;
                            /** @description queued → sent → delivered (→ read on WhatsApp), or failed / canceled. Never goes back. */
                            status: "queued" | "sent" | "delivered" | "read" | "failed" | "canceled";
                            status_history: components["schemas"]["StatusChange"][];
                            credits_used: number;
                            /**
                             * Format: date-time
                             * @description ISO 8601, UTC.
                             */
                            created_at: string;
                            scheduled_at: string | null;
                            error: {
                                code: string;
                                message: string;
                            } | null;
                            route: string | null;
                        };
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description Not found: NOT_FOUND */
            404: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error404"];
                };
            };
            /** @description In conflict with the current state: MESSAGE_NOT_CANCELABLE, WEBHOOK_DISABLED, WEBHOOK_LIMIT_REACHED, IDEMPOTENCY_KEY_IN_USE */
            409: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error409"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** @description Oldest first; at most 20 per account. */
                            webhooks: components["schemas"]["Webhook"][];
                        };
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first request with a key runs, and for 24 h a retry with the same key, path and body gets the same response (header `Idempotent-Replayed: true`) without running again. A different request with the key → 422 IDEMPOTENCY_KEY_REUSED; while the first still runs → 409 IDEMPOTENCY_KEY_IN_USE. Keys belong to the account; 1 to 255 visible ASCII characters, e.g. a UUID.
                 * @example 5f0c7a0e-2b8b-4f7e-9d8e-4b8a9c6a1f3d
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://example.com/herald/events",
                 *       "events": [
                 *         "message.delivered",
                 *         "message.failed"
                 *       ],
                 *       "description": "Order notifications"
                 *     }
                 */
                "application/json": components["schemas"]["RegisterWebhookRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: components["schemas"]["Webhook"];
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description In conflict with the current state: MESSAGE_NOT_CANCELABLE, WEBHOOK_DISABLED, WEBHOOK_LIMIT_REACHED, IDEMPOTENCY_KEY_IN_USE */
            409: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error409"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    getWebhookSigningSecret: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: components["schemas"]["WebhookSigningSecret"];
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    rotateWebhookSigningSecret: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first request with a key runs, and for 24 h a retry with the same key, path and body gets the same response (header `Idempotent-Replayed: true`) without running again. A different request with the key → 422 IDEMPOTENCY_KEY_REUSED; while the first still runs → 409 IDEMPOTENCY_KEY_IN_USE. Keys belong to the account; 1 to 255 visible ASCII characters, e.g. a UUID.
                 * @example 5f0c7a0e-2b8b-4f7e-9d8e-4b8a9c6a1f3d
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: components["schemas"]["WebhookSigningSecret"];
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description In conflict with the current state: MESSAGE_NOT_CANCELABLE, WEBHOOK_DISABLED, WEBHOOK_LIMIT_REACHED, IDEMPOTENCY_KEY_IN_USE */
            409: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error409"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description `wh_<id>` */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: components["schemas"]["Webhook"];
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description Not found: NOT_FOUND */
            404: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error404"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description `wh_<id>` */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            webhook_id: string;
                            /** @enum {boolean} */
                            deleted: true;
                        };
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description Not found: NOT_FOUND */
            404: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error404"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    enableWebhook: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first request with a key runs, and for 24 h a retry with the same key, path and body gets the same response (header `Idempotent-Replayed: true`) without running again. A different request with the key → 422 IDEMPOTENCY_KEY_REUSED; while the first still runs → 409 IDEMPOTENCY_KEY_IN_USE. Keys belong to the account; 1 to 255 visible ASCII characters, e.g. a UUID.
                 * @example 5f0c7a0e-2b8b-4f7e-9d8e-4b8a9c6a1f3d
                 */
                "idempotency-key"?: string;
            };
            path: {
                /** @description `wh_<id>` */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: components["schemas"]["Webhook"];
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description Not found: NOT_FOUND */
            404: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error404"];
                };
            };
            /** @description In conflict with the current state: MESSAGE_NOT_CANCELABLE, WEBHOOK_DISABLED, WEBHOOK_LIMIT_REACHED, IDEMPOTENCY_KEY_IN_USE */
            409: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error409"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description `pending` (waiting for its first attempt or a retry), `succeeded` (a 2xx), `failed` (gave up, or the webhook was disabled), `canceled` (the webhook was deleted first). */
                status?: "pending" | "succeeded" | "failed" | "canceled";
                /** @description Results per page, 1 to 100. */
                limit?: number;
                /** @description Results to skip. */
                offset?: number;
            };
            header?: never;
            path: {
                /** @description `wh_<id>` */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            deliveries: components["schemas"]["WebhookDelivery"][];
                            pagination: {
                                /** @description Deliveries matching the filter. */
                                total: number;
                                limit: number;
                                offset: number;
                                /** @description Whether a page follows this one. */
                                has_more: boolean;
                            };
                        };
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description Not found: NOT_FOUND */
            404: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error404"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    replayWebhookDelivery: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first request with a key runs, and for 24 h a retry with the same key, path and body gets the same response (header `Idempotent-Replayed: true`) without running again. A different request with the key → 422 IDEMPOTENCY_KEY_REUSED; while the first still runs → 409 IDEMPOTENCY_KEY_IN_USE. Keys belong to the account; 1 to 255 visible ASCII characters, e.g. a UUID.
                 * @example 5f0c7a0e-2b8b-4f7e-9d8e-4b8a9c6a1f3d
                 */
                "idempotency-key"?: string;
            };
            path: {
                /** @description `wh_<id>` */
                webhook_id: string;
                /** @description `whd_<id>` */
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: components["schemas"]["WebhookDelivery"];
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description Not found: NOT_FOUND */
            404: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error404"];
                };
            };
            /** @description In conflict with the current state: MESSAGE_NOT_CANCELABLE, WEBHOOK_DISABLED, WEBHOOK_LIMIT_REACHED, IDEMPOTENCY_KEY_IN_USE */
            409: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error409"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    replayWebhookDeliveries: {
        parameters: {
            query: {
                /** @description Failed deliveries made at or after this time are re-sent. ISO 8601; without an offset it is UTC. */
                since: string;
            };
            header?: {
                /**
                 * @description Makes the request safe to retry: the first request with a key runs, and for 24 h a retry with the same key, path and body gets the same response (header `Idempotent-Replayed: true`) without running again. A different request with the key → 422 IDEMPOTENCY_KEY_REUSED; while the first still runs → 409 IDEMPOTENCY_KEY_IN_USE. Keys belong to the account; 1 to 255 visible ASCII characters, e.g. a UUID.
                 * @example 5f0c7a0e-2b8b-4f7e-9d8e-4b8a9c6a1f3d
                 */
                "idempotency-key"?: string;
            };
            path: {
                /** @description `wh_<id>` */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            /** @description Deliveries queued by this call, one per event, at most 1000. */
                            queued: number;
                            /** @description More failed deliveries remain; call again with the same `since` to queue them. */
                            has_more: boolean;
                        };
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description Not found: NOT_FOUND */
            404: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error404"];
                };
            };
            /** @description In conflict with the current state: MESSAGE_NOT_CANCELABLE, WEBHOOK_DISABLED, WEBHOOK_LIMIT_REACHED, IDEMPOTENCY_KEY_IN_USE */
            409: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error409"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    sendWebhookTestEvent: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first request with a key runs, and for 24 h a retry with the same key, path and body gets the same response (header `Idempotent-Replayed: true`) without running again. A different request with the key → 422 IDEMPOTENCY_KEY_REUSED; while the first still runs → 409 IDEMPOTENCY_KEY_IN_USE. Keys belong to the account; 1 to 255 visible ASCII characters, e.g. a UUID.
                 * @example 5f0c7a0e-2b8b-4f7e-9d8e-4b8a9c6a1f3d
                 */
                "idempotency-key"?: string;
            };
            path: {
                /** @description `wh_<id>` */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: components["schemas"]["WebhookDelivery"];
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description Not found: NOT_FOUND */
            404: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error404"];
                };
            };
            /** @description In conflict with the current state: MESSAGE_NOT_CANCELABLE, WEBHOOK_DISABLED, WEBHOOK_LIMIT_REACHED, IDEMPOTENCY_KEY_IN_USE */
            409: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error409"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    listSuppressions: {
        parameters: {
            query?: {
                channel?: "sms" | "whatsapp" | "email" | "telegram";
                /** @description Entries per page, 1 to 100. */
                limit?: number;
                /** @description The `next_cursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            suppressions: components["schemas"]["Suppression"][];
                            next_cursor: string | null;
                        };
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    createSuppression: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first request with a key runs, and for 24 h a retry with the same key, path and body gets the same response (header `Idempotent-Replayed: true`) without running again. A different request with the key → 422 IDEMPOTENCY_KEY_REUSED; while the first still runs → 409 IDEMPOTENCY_KEY_IN_USE. Keys belong to the account; 1 to 255 visible ASCII characters, e.g. a UUID.
                 * @example 5f0c7a0e-2b8b-4f7e-9d8e-4b8a9c6a1f3d
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    channel: "sms" | "whatsapp" | "email" | "telegram";
                    /** @description As sends name it; see Suppression.recipient. */
                    recipient: string;
                    /** @description Defaults to `manual`. */
                    reason?: "opt_out" | "hard_bounce" | "complaint" | "blocked" | "manual";
                    note?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: components["schemas"]["Suppression"];
                    };
                };
            };
            /** @description Created */
            201: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: components["schemas"]["Suppression"];
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description In conflict with the current state: MESSAGE_NOT_CANCELABLE, WEBHOOK_DISABLED, WEBHOOK_LIMIT_REACHED, IDEMPOTENCY_KEY_IN_USE */
            409: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error409"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    deleteSuppression: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                channel: "sms" | "whatsapp" | "email" | "telegram";
                recipient: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            channel: "sms" | "whatsapp" | "email" | "telegram";
                            recipient: string;
                            /** @enum {boolean} */
                            deleted: true;
                        };
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description Not found: NOT_FOUND */
            404: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error404"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    listKeywordReplies: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: {
                            languages: components["schemas"]["KeywordLanguage"][];
                        };
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    setKeywordReplies: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                language: "en" | "es" | "fr" | "de";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    stop_reply: string;
                    start_reply: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: components["schemas"]["KeywordLanguage"];
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    receiveSandboxMessage: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first request with a key runs, and for 24 h a retry with the same key, path and body gets the same response (header `Idempotent-Replayed: true`) without running again. A different request with the key → 422 IDEMPOTENCY_KEY_REUSED; while the first still runs → 409 IDEMPOTENCY_KEY_IN_USE. Keys belong to the account; 1 to 255 visible ASCII characters, e.g. a UUID.
                 * @example 5f0c7a0e-2b8b-4f7e-9d8e-4b8a9c6a1f3d
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "channel": "sms",
                 *       "from": "+14155552671",
                 *       "text": "STOP"
                 *     }
                 */
                "application/json": {
                    channel: "sms" | "whatsapp" | "email" | "telegram";
                    /** @description Who writes: an E.164 number, a chat id or an email address. */
                    from: string;
                    text: string;
                    /** @description The account's address it is written to; its first address on the channel, or `sandbox`, by default. */
                    to?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: components["schemas"]["InboundMessage"];
                    };
                };
            };
            /** @description The request is malformed: INVALID_REQUEST */
            400: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description No valid access token: UNAUTHORIZED */
            401: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description Not allowed to this token or address: INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, ACCOUNT_SUSPENDED, HTTPS_REQUIRED */
            403: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error403"];
                };
            };
            /** @description In conflict with the current state: MESSAGE_NOT_CANCELABLE, WEBHOOK_DISABLED, WEBHOOK_LIMIT_REACHED, IDEMPOTENCY_KEY_IN_USE */
            409: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error409"];
                };
            };
            /** @description The body is too large: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description The request is well-formed but invalid: VALIDATION_ERROR, INVALID_PHONE, TEMPLATE_NOT_FOUND, TEMPLATE_NOT_APPROVED, TEMPLATE_PARAMS_MISMATCH, SESSION_WINDOW_CLOSED, RECIPIENT_SUPPRESSED, IDEMPOTENCY_KEY_REUSED */
            422: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description Too many requests: RATE_LIMITED */
            429: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Requests the client's plan allows in a burst. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the burst now. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the burst is whole again. */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before sending the request again: on a 429 (rate limited), a 503 (shed, draining, the store out of reach) and a 409 IDEMPOTENCY_KEY_IN_USE. */
                    "Retry-After"?: number;
                    /** @description `true` when this is the kept answer to an earlier request with the same Idempotency-Key, not a new one. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description A failure on our side: INTERNAL_ERROR */
            500: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error500"];
                };
            };
            /** @description The node is shutting down, or overloaded and shedding load: the request was refused before any work was done (nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than `OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than `OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / `OVERLOAD_MAX_RSS_BYTES` when set. */
            503: {
                headers: {
                    /** @description The id of the request (the X-Request-Id sent, or one made for it): in every log line of the request; quote it to support. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before sending the request again. */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
        };
    };
    receiveEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (Standard Webhooks). */
                "webhook-id": string;
                /** @description Unix seconds when the delivery was signed. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per secret in force, space-separated. */
                "webhook-signature": string;
                /** @description Unix seconds when the delivery was signed. */
                "X-Service-Timestamp": string;
                /** @description `v1=<hex HMAC-SHA256 of "<timestamp>.<body>">`, one per secret in force, comma-separated. */
                "X-Service-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookEvent"];
            };
        };
        responses: {
            /** @description Gone: the webhook is disabled at once (a callback_url is not retried). */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Taken. Anything else, or no answer within the timeout (10 s), is tried again later; 410 Gone disables a webhook. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
