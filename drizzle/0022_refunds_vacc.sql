CREATE TABLE "payment_refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payment_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"kind" text NOT NULL,
	"outcome" text NOT NULL,
	"reason" text,
	"reference" text,
	"actor" text NOT NULL,
	"actor_id" text,
	"gateway_status" text,
	"gateway_message" text,
	"gateway_trade_no" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answered_at" timestamp with time zone,
	CONSTRAINT "payment_refunds_kind_check" CHECK (kind in ('cancel', 'refund', 'manual')),
	CONSTRAINT "payment_refunds_outcome_check" CHECK (outcome in ('pending', 'succeeded', 'refused', 'failed')),
	CONSTRAINT "payment_refunds_actor_check" CHECK (actor in ('registrant', 'organiser', 'gateway', 'system')),
	CONSTRAINT "payment_refunds_amount_check" CHECK ("payment_refunds"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "virtual_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"merchant_order_no" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"bank_code" text,
	"account_no" text,
	"expires_at" timestamp with time zone,
	"gateway_trade_no" text,
	"status" text DEFAULT 'issued' NOT NULL,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "virtual_accounts_merchant_order_no_unique" UNIQUE("merchant_order_no"),
	CONSTRAINT "virtual_accounts_status_check" CHECK (status in ('issued', 'paid', 'expired'))
);
--> statement-breakpoint
ALTER TABLE "editions" ADD COLUMN "atm_enabled" boolean;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_payment_id_order_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."order_payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "virtual_accounts" ADD CONSTRAINT "virtual_accounts_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_refunds_payment_idx" ON "payment_refunds" USING btree ("payment_id","created_at");--> statement-breakpoint
CREATE INDEX "payment_refunds_order_idx" ON "payment_refunds" USING btree ("order_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_refunds_one_pending_idx" ON "payment_refunds" USING btree ("payment_id") WHERE outcome = 'pending';--> statement-breakpoint
CREATE INDEX "virtual_accounts_order_idx" ON "virtual_accounts" USING btree ("order_id","created_at");