CREATE TABLE "bank_import_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"import_id" uuid NOT NULL,
	"line_no" integer NOT NULL,
	"fingerprint" text,
	"duplicate_of" uuid,
	"kind" text NOT NULL,
	"booked_on" date,
	"amount_cents" integer,
	"currency" text,
	"account_last_five" text,
	"memo" text DEFAULT '' NOT NULL,
	"cells" jsonb NOT NULL,
	"outcome" text NOT NULL,
	"reason" text,
	"candidates" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"paid_order_id" uuid,
	"order_payment_id" uuid,
	"paid_by" text,
	"paid_at" timestamp with time zone,
	CONSTRAINT "bank_import_lines_fingerprint_unique" UNIQUE("fingerprint"),
	CONSTRAINT "bank_import_lines_order_payment_id_unique" UNIQUE("order_payment_id"),
	CONSTRAINT "bank_import_lines_kind_check" CHECK (kind in ('credit', 'debit', 'unreadable')),
	CONSTRAINT "bank_import_lines_outcome_check" CHECK (outcome in ('matched', 'ambiguous', 'unmatched', 'already_imported', 'debit', 'unreadable', 'paid')),
	CONSTRAINT "bank_import_lines_currency_check" CHECK (currency is null or currency in ('TWD', 'USD')),
	CONSTRAINT "bank_import_lines_paid_check" CHECK ((outcome = 'paid') = (paid_order_id is not null)),
	CONSTRAINT "bank_import_lines_credit_check" CHECK (kind = 'unreadable' or (booked_on is not null and amount_cents > 0 and currency is not null))
);
--> statement-breakpoint
CREATE TABLE "bank_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"file_name" text NOT NULL,
	"encoding" text NOT NULL,
	"mapping" jsonb NOT NULL,
	"imported_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bank_statement_mappings" (
	"signature" text PRIMARY KEY NOT NULL,
	"mapping" jsonb NOT NULL,
	"encoding" text NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "order_events" DROP CONSTRAINT "order_events_kind_check";--> statement-breakpoint
ALTER TABLE "order_payments" ADD COLUMN "refund_reference" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "transfer_returned_message" text;--> statement-breakpoint
ALTER TABLE "bank_import_lines" ADD CONSTRAINT "bank_import_lines_import_id_bank_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."bank_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_import_lines" ADD CONSTRAINT "bank_import_lines_paid_order_id_orders_id_fk" FOREIGN KEY ("paid_order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_import_lines" ADD CONSTRAINT "bank_import_lines_order_payment_id_order_payments_id_fk" FOREIGN KEY ("order_payment_id") REFERENCES "public"."order_payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bank_import_lines_import_idx" ON "bank_import_lines" USING btree ("import_id","line_no");--> statement-breakpoint
CREATE INDEX "bank_import_lines_open_idx" ON "bank_import_lines" USING btree ("outcome") WHERE outcome in ('matched', 'ambiguous', 'unmatched');--> statement-breakpoint
CREATE INDEX "bank_imports_created_idx" ON "bank_imports" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_kind_check" CHECK (kind in ('placed', 'card_attempt_started', 'card_declined', 'transfer_declared', 'paid', 'expired', 'review_started', 'approved', 'rejected', 'canceled', 'refund_due', 'refunded', 'form_updated', 'badge_picked_up', 'transfer_returned'));