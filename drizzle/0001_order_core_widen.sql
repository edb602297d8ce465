CREATE TABLE "order_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"actor" text NOT NULL,
	"actor_id" text,
	"payment_status_before" text,
	"payment_status_after" text NOT NULL,
	"approval_status_before" text,
	"approval_status_after" text,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"available_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_events_kind_check" CHECK (kind in ('placed', 'card_attempt_started', 'card_declined', 'transfer_declared', 'paid', 'expired', 'review_started', 'approved', 'rejected', 'canceled', 'refund_due', 'refunded')),
	CONSTRAINT "order_events_actor_check" CHECK (actor in ('registrant', 'organiser', 'gateway', 'system'))
);
--> statement-breakpoint
CREATE TABLE "order_payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"method" text NOT NULL,
	"attempt" integer,
	"merchant_order_no" text,
	"currency" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"status" text NOT NULL,
	"gateway_trade_no" text,
	"gateway_status" text,
	"gateway_message" text,
	"gateway_at" timestamp with time zone,
	"refund_reason" text,
	"paid_at" timestamp with time zone,
	"refunded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_payments_merchant_order_no_unique" UNIQUE("merchant_order_no"),
	CONSTRAINT "order_payments_method_check" CHECK (method in ('credit_card', 'atm', 'TWD', 'USD')),
	CONSTRAINT "order_payments_status_check" CHECK (status in ('started', 'declined', 'paid', 'refund_due', 'refunded')),
	CONSTRAINT "order_payments_currency_check" CHECK (currency in ('TWD', 'USD')),
	CONSTRAINT "order_payments_amount_check" CHECK ("order_payments"."amount_cents" >= 0)
);
--> statement-breakpoint
DROP INDEX "orders_user_event_live_idx";--> statement-breakpoint
DROP INDEX "orders_one_badge_per_user_idx";--> statement-breakpoint
DROP INDEX "orders_one_badge_per_email_idx";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "unit_price_twd_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "unit_price_usd_cents" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "total_twd_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "total_usd_cents" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_type" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "remitter" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "sender_bank" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "last_five_digits" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "card_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "approved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "rejected_reason" text;--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_payments" ADD CONSTRAINT "order_payments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_events_order_idx" ON "order_events" USING btree ("order_id","id");--> statement-breakpoint
CREATE INDEX "order_events_unprocessed_idx" ON "order_events" USING btree ("available_at","id") WHERE processed_at is null;--> statement-breakpoint
CREATE INDEX "order_payments_order_idx" ON "order_payments" USING btree ("order_id","created_at");--> statement-breakpoint
CREATE INDEX "order_payments_refund_due_idx" ON "order_payments" USING btree ("status") WHERE status = 'refund_due';--> statement-breakpoint
CREATE UNIQUE INDEX "orders_user_event_live_idx" ON "orders" USING btree ("user_id","event_id") WHERE payment_status in ('free', 'pending', 'checking', 'paid');--> statement-breakpoint
CREATE UNIQUE INDEX "orders_one_badge_per_user_idx" ON "orders" USING btree ("user_id") WHERE registration_type in ('BADGE_PROFESSIONAL', 'BADGE_FREE') and payment_status in ('free', 'pending', 'checking', 'paid');--> statement-breakpoint
CREATE UNIQUE INDEX "orders_one_badge_per_email_idx" ON "orders" USING btree ("badge_email_key") WHERE "orders"."badge_email_key" is not null and payment_status in ('free', 'pending', 'checking', 'paid');--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_prices_check" CHECK ("orders"."unit_price_twd_cents" >= 0 and "orders"."total_twd_cents" >= 0 and coalesce("orders"."total_usd_cents", 0) >= 0);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_payment_type_check" CHECK (payment_type is null or payment_type in ('credit_card', 'atm', 'TWD', 'USD'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_last_five_check" CHECK ("orders"."last_five_digits" is null or "orders"."last_five_digits" ~ '^[0-9]{5}$');