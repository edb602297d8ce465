CREATE TABLE "emails" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key" text NOT NULL,
	"order_event_id" bigint,
	"order_id" uuid,
	"template" text NOT NULL,
	"recipient" text NOT NULL,
	"locale" text,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text NOT NULL,
	"message_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"transport" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"available_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "emails_key_unique" UNIQUE("key"),
	CONSTRAINT "emails_status_check" CHECK (status in ('pending', 'sent')),
	CONSTRAINT "emails_transport_check" CHECK (transport is null or transport in ('smtp', 'outbox')),
	CONSTRAINT "emails_locale_check" CHECK (locale is null or locale in ('en', 'zh-TW')),
	CONSTRAINT "emails_sent_check" CHECK ((status = 'sent') = (sent_at is not null))
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "locale" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "site_origin" text;--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_order_event_id_order_events_id_fk" FOREIGN KEY ("order_event_id") REFERENCES "public"."order_events"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "emails_order_event_template_idx" ON "emails" USING btree ("order_event_id","template");--> statement-breakpoint
CREATE INDEX "emails_pending_idx" ON "emails" USING btree ("available_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "emails_created_idx" ON "emails" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_locale_check" CHECK (locale is null or locale in ('en', 'zh-TW'));