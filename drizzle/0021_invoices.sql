CREATE TABLE "invoice_actions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"key" text NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text NOT NULL,
	"amount_twd" integer NOT NULL,
	"allowance_no" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"done_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoice_actions_kind_check" CHECK (kind in ('void', 'allowance')),
	CONSTRAINT "invoice_actions_status_check" CHECK (status in ('pending', 'done', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "invoice_settings" (
	"edition_id" uuid PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"item_names" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"edition_id" uuid,
	"status" text DEFAULT 'pending' NOT NULL,
	"kind" text NOT NULL,
	"merchant_order_no" text NOT NULL,
	"buyer_name" text NOT NULL,
	"buyer_ubn" text,
	"buyer_email" text NOT NULL,
	"carrier_type" text NOT NULL,
	"carrier_number" text,
	"love_code" text,
	"item_name" text NOT NULL,
	"amount_twd" integer NOT NULL,
	"tax" integer NOT NULL,
	"remaining_twd" integer NOT NULL,
	"number" text,
	"random_code" text,
	"invoice_trans_no" text,
	"issued_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_order_id_unique" UNIQUE("order_id"),
	CONSTRAINT "invoices_merchant_order_no_unique" UNIQUE("merchant_order_no"),
	CONSTRAINT "invoices_status_check" CHECK (status in ('pending', 'issued', 'failed', 'void', 'allowance')),
	CONSTRAINT "invoices_kind_check" CHECK (kind in ('b2c', 'b2b'))
);
--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "carrier_type" text DEFAULT 'ezpay' NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "carrier_number" text;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "love_code" text;--> statement-breakpoint
UPDATE "receipts" SET "carrier_type" = 'none' WHERE "kind" = 'company';--> statement-breakpoint
ALTER TABLE "invoice_actions" ADD CONSTRAINT "invoice_actions_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_settings" ADD CONSTRAINT "invoice_settings_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_actions_key_idx" ON "invoice_actions" USING btree ("invoice_id","key");--> statement-breakpoint
CREATE INDEX "invoice_actions_due_idx" ON "invoice_actions" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "invoices_due_idx" ON "invoices" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "invoices_issued_at_idx" ON "invoices" USING btree ("issued_at");--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_carrier_type_check" CHECK (carrier_type in ('ezpay', 'mobile', 'certificate', 'donation', 'none'));