-- Order core, step 2 of 3: copy what the one-row-per-order `payments` table held to where it
-- lives now. Prices fixed at order time and the declared payment go onto `orders`; the last card
-- attempt and every confirmed payment become `order_payments` records. Step 3 drops `payments`.
UPDATE "orders" o SET
  "unit_price_twd_cents" = coalesce(p."unit_price_twd", o."amount_cents" / greatest(o."quantity", 1)),
  "unit_price_usd_cents" = nullif(p."unit_price_usd", 0),
  "total_twd_cents" = coalesce(p."unit_price_twd" * o."quantity", o."amount_cents"),
  "total_usd_cents" = nullif(p."unit_price_usd", 0) * o."quantity",
  "payment_type" = p."type",
  "remitter" = p."remitter",
  "sender_bank" = p."sender_bank",
  "last_five_digits" = p."last_five_digits",
  "card_attempts" = p."card_attempts"
FROM "payments" p WHERE p."order_id" = o."id";
--> statement-breakpoint
UPDATE "orders" SET
  "unit_price_twd_cents" = "amount_cents" / greatest("quantity", 1),
  "total_twd_cents" = "amount_cents"
WHERE "currency" = 'TWD' AND "total_twd_cents" = 0 AND "amount_cents" > 0;
--> statement-breakpoint
INSERT INTO "order_payments" ("order_id", "method", "attempt", "merchant_order_no", "currency", "amount_cents", "status",
  "gateway_trade_no", "gateway_status", "gateway_message", "gateway_at", "paid_at", "created_at", "updated_at")
SELECT p."order_id", 'credit_card', p."card_attempts", o."order_no" || '_' || p."card_attempts", 'TWD',
  coalesce(p."amount_twd", o."total_twd_cents"),
  CASE WHEN p."status" = 'paid' AND p."type" = 'credit_card' THEN 'paid'
       WHEN p."gateway_status" IS NOT NULL AND p."gateway_status" <> 'SUCCESS' THEN 'declined'
       ELSE 'started' END,
  p."gateway_trade_no", p."gateway_status", p."gateway_message", p."gateway_at",
  CASE WHEN p."status" = 'paid' AND p."type" = 'credit_card' THEN p."paid_at" END,
  coalesce(p."card_started_at", p."created_at"), p."updated_at"
FROM "payments" p JOIN "orders" o ON o."id" = p."order_id"
WHERE p."card_attempts" > 0;
--> statement-breakpoint
INSERT INTO "order_payments" ("order_id", "method", "currency", "amount_cents", "status", "paid_at", "created_at", "updated_at")
SELECT p."order_id", coalesce(p."type", 'TWD'), o."currency", o."amount_cents", 'paid',
  coalesce(p."paid_at", o."paid_at", p."updated_at"), coalesce(p."paid_at", p."updated_at"), p."updated_at"
FROM "payments" p JOIN "orders" o ON o."id" = p."order_id"
WHERE p."status" = 'paid' AND (p."type" IS DISTINCT FROM 'credit_card' OR p."card_attempts" = 0);
