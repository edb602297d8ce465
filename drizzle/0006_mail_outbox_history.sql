-- Order events from before the mail outbox are history, not news: mark them handled, so the mail
-- worker (decision 012) does not send months-old "order placed" mails when it first starts.
UPDATE "order_events" SET "processed_at" = now() WHERE "processed_at" IS NULL;
