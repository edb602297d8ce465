CREATE TABLE "badge_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"identity" text NOT NULL,
	"email" text,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"used_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "badge_links_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "badges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"email_key" text NOT NULL,
	"order_id" uuid NOT NULL,
	"identity" text NOT NULL,
	"name_zh" text DEFAULT '' NOT NULL,
	"name_en" text NOT NULL,
	"company_name_zh" text DEFAULT '' NOT NULL,
	"company_name_en" text DEFAULT '' NOT NULL,
	"personal_photo_file_id" uuid,
	"pickup_code" text NOT NULL,
	"picked_up_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "badges_user_id_unique" UNIQUE("user_id"),
	CONSTRAINT "badges_email_key_unique" UNIQUE("email_key"),
	CONSTRAINT "badges_order_id_unique" UNIQUE("order_id"),
	CONSTRAINT "badges_pickup_code_unique" UNIQUE("pickup_code"),
	CONSTRAINT "badges_identity_check" CHECK (identity in ('PROFESSIONAL', 'VIP', 'EXHIBITOR_PITCHING', 'EXHIBITOR_MARKET', 'EXHIBITOR_INNOVATIONS'))
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"type" text NOT NULL,
	"name_en" text NOT NULL,
	"name_zh" text NOT NULL,
	"description_en" text DEFAULT '' NOT NULL,
	"description_zh" text DEFAULT '' NOT NULL,
	"location_en" text DEFAULT '' NOT NULL,
	"location_zh" text DEFAULT '' NOT NULL,
	"start_time" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"register_start_at" timestamp with time zone NOT NULL,
	"register_end_at" timestamp with time zone NOT NULL,
	"form_modify_expires_at" timestamp with time zone,
	"price_cents_twd" integer DEFAULT 0 NOT NULL,
	"price_cents_usd" integer DEFAULT 0 NOT NULL,
	"original_price_cents_twd" integer,
	"capacity" integer,
	"seats_taken" integer DEFAULT 0 NOT NULL,
	"requires_approval" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "events_slug_unique" UNIQUE("slug"),
	CONSTRAINT "events_type_check" CHECK (type in ('badge_professional', 'badge_free', 'event_audit', 'event_general', 'event_online', 'market_earlybird', 'market_online', 'pitching_project', 'pitching_story')),
	CONSTRAINT "events_seats_check" CHECK ("events"."seats_taken" >= 0 and ("events"."capacity" is null or "events"."seats_taken" <= "events"."capacity")),
	CONSTRAINT "events_window_check" CHECK ("events"."register_start_at" <= "events"."register_end_at" and "events"."start_time" <= "events"."end_at")
);
--> statement-breakpoint
CREATE TABLE "files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"storage_key" text NOT NULL,
	"purpose" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "files_storage_key_unique" UNIQUE("storage_key")
);
--> statement-breakpoint
CREATE TABLE "order_contents" (
	"order_id" uuid NOT NULL,
	"content_id" text NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	CONSTRAINT "order_contents_order_id_content_id_pk" PRIMARY KEY("order_id","content_id")
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_no" text NOT NULL,
	"user_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"registration_type" text NOT NULL,
	"payment_status" text NOT NULL,
	"approval_status" text,
	"payment_expires_at" timestamp with time zone,
	"currency" text DEFAULT 'TWD' NOT NULL,
	"quantity" integer DEFAULT 1 NOT NULL,
	"amount_cents" integer DEFAULT 0 NOT NULL,
	"holds_seat" boolean DEFAULT false NOT NULL,
	"badge_email_key" text,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_order_no_unique" UNIQUE("order_no"),
	CONSTRAINT "orders_registration_type_check" CHECK (registration_type in ('PITCHING_PROJECT', 'PITCHING_STORY', 'MARKET_EARLYBIRD', 'MARKET_INTERNATIONAL', 'MARKET_DOMESTIC', 'MARKET_ONLINE', 'BADGE_FREE', 'BADGE_PROFESSIONAL', 'EVENT_GENERAL', 'EVENT_AUDIT', 'EVENT_ONLINE')),
	CONSTRAINT "orders_payment_status_check" CHECK (payment_status in ('free', 'pending', 'checking', 'paid', 'overdue', 'canceled')),
	CONSTRAINT "orders_approval_status_check" CHECK (approval_status is null or approval_status in ('pending_approval', 'auditing', 'approved', 'rejected')),
	CONSTRAINT "orders_currency_check" CHECK (currency in ('TWD', 'USD')),
	CONSTRAINT "orders_amount_check" CHECK ("orders"."amount_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "payment_notifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" uuid,
	"source" text NOT NULL,
	"accepted" boolean NOT NULL,
	"reason" text,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"type" text,
	"status" text NOT NULL,
	"due_date" timestamp with time zone,
	"amount_twd" integer,
	"amount_usd" integer,
	"unit_price_twd" integer,
	"unit_price_usd" integer,
	"remitter" text,
	"sender_bank" text,
	"last_five_digits" text,
	"gateway_trade_no" text,
	"gateway_status" text,
	"gateway_message" text,
	"gateway_at" timestamp with time zone,
	"card_started_at" timestamp with time zone,
	"card_attempts" integer DEFAULT 0 NOT NULL,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_order_id_unique" UNIQUE("order_id"),
	CONSTRAINT "payments_type_check" CHECK (type is null or type in ('credit_card', 'atm', 'TWD', 'USD')),
	CONSTRAINT "payments_last_five_check" CHECK ("payments"."last_five_digits" is null or "payments"."last_five_digits" ~ '^[0-9]{5}$')
);
--> statement-breakpoint
CREATE TABLE "receipts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"kind" text DEFAULT 'personal' NOT NULL,
	"invoice_title" text,
	"unified_business_number" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "receipts_order_id_unique" UNIQUE("order_id"),
	CONSTRAINT "receipts_kind_check" CHECK (kind in ('personal', 'company')),
	CONSTRAINT "receipts_ubn_check" CHECK ("receipts"."unified_business_number" is null or "receipts"."unified_business_number" ~ '^[0-9]{8}$')
);
--> statement-breakpoint
CREATE TABLE "registrations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"form" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"contact" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "registrations_order_id_unique" UNIQUE("order_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subject" text NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"role" text DEFAULT 'registrant' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_subject_unique" UNIQUE("subject"),
	CONSTRAINT "users_role_check" CHECK (role in ('registrant', 'organiser'))
);
--> statement-breakpoint
ALTER TABLE "badge_links" ADD CONSTRAINT "badge_links_used_by_users_id_fk" FOREIGN KEY ("used_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "badges" ADD CONSTRAINT "badges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "badges" ADD CONSTRAINT "badges_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "badges" ADD CONSTRAINT "badges_personal_photo_file_id_files_id_fk" FOREIGN KEY ("personal_photo_file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_contents" ADD CONSTRAINT "order_contents_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_notifications" ADD CONSTRAINT "payment_notifications_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "files_owner_idx" ON "files" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "orders_user_created_idx" ON "orders" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_event_idx" ON "orders" USING btree ("event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_user_event_live_idx" ON "orders" USING btree ("user_id","event_id") WHERE "orders"."payment_status" not in ('overdue', 'canceled');--> statement-breakpoint
CREATE UNIQUE INDEX "orders_one_badge_per_user_idx" ON "orders" USING btree ("user_id") WHERE "orders"."registration_type" in ('BADGE_FREE', 'BADGE_PROFESSIONAL') and "orders"."payment_status" not in ('overdue', 'canceled');--> statement-breakpoint
CREATE UNIQUE INDEX "orders_one_badge_per_email_idx" ON "orders" USING btree ("badge_email_key") WHERE "orders"."badge_email_key" is not null and "orders"."payment_status" not in ('overdue', 'canceled');--> statement-breakpoint
CREATE INDEX "users_email_idx" ON "users" USING btree (lower("email"));