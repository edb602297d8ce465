CREATE TABLE "meeting_exhibitors" (
	"registration_id" uuid PRIMARY KEY NOT NULL,
	"tables_needed" integer DEFAULT 1 NOT NULL,
	"auto_accept" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "meeting_exhibitors_tables_check" CHECK ("meeting_exhibitors"."tables_needed" between 1 and 10)
);
--> statement-breakpoint
CREATE TABLE "meeting_people" (
	"user_id" uuid NOT NULL,
	"slot_id" uuid NOT NULL,
	"meeting_id" uuid NOT NULL,
	CONSTRAINT "meeting_people_user_id_slot_id_pk" PRIMARY KEY("user_id","slot_id")
);
--> statement-breakpoint
CREATE TABLE "meeting_settings" (
	"edition_id" uuid PRIMARY KEY NOT NULL,
	"days" date[] NOT NULL,
	"opens_at" text NOT NULL,
	"closes_at" text NOT NULL,
	"slot_minutes" integer DEFAULT 30 NOT NULL,
	"pending_cap" integer DEFAULT 5 NOT NULL,
	"daily_cap" integer DEFAULT 8 NOT NULL,
	"cancel_cutoff_hours" integer DEFAULT 24 NOT NULL,
	"request_expiry_hours" integer DEFAULT 48 NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "meeting_settings_hours_check" CHECK ("meeting_settings"."opens_at" ~ '^[0-2][0-9]:[0-5][0-9]$' and "meeting_settings"."closes_at" ~ '^[0-2][0-9]:[0-5][0-9]$' and "meeting_settings"."opens_at" < "meeting_settings"."closes_at"),
	CONSTRAINT "meeting_settings_slot_check" CHECK ("meeting_settings"."slot_minutes" between 5 and 240),
	CONSTRAINT "meeting_settings_caps_check" CHECK ("meeting_settings"."pending_cap" >= 1 and "meeting_settings"."daily_cap" >= 1 and "meeting_settings"."cancel_cutoff_hours" >= 0 and "meeting_settings"."request_expiry_hours" >= 1)
);
--> statement-breakpoint
CREATE TABLE "meeting_slots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"edition_id" uuid NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"day" date NOT NULL,
	"open" boolean DEFAULT true NOT NULL,
	CONSTRAINT "meeting_slots_time_check" CHECK ("meeting_slots"."starts_at" < "meeting_slots"."ends_at")
);
--> statement-breakpoint
CREATE TABLE "meeting_tables" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"edition_id" uuid NOT NULL,
	"name" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "meeting_unavailable" (
	"registration_id" uuid NOT NULL,
	"slot_id" uuid NOT NULL,
	CONSTRAINT "meeting_unavailable_registration_id_slot_id_pk" PRIMARY KEY("registration_id","slot_id")
);
--> statement-breakpoint
CREATE TABLE "meetings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"edition_id" uuid NOT NULL,
	"exhibitor_id" uuid NOT NULL,
	"slot_id" uuid NOT NULL,
	"buyer_id" uuid NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"table_id" uuid,
	"sequence" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"closed_by" text,
	"attendance" text,
	"attendance_at" timestamp with time zone,
	"attendance_by" text,
	"locale" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "meetings_status_check" CHECK (status in ('requested', 'accepted', 'declined', 'cancelled', 'expired')),
	CONSTRAINT "meetings_message_check" CHECK (char_length("meetings"."message") <= 500),
	CONSTRAINT "meetings_attendance_check" CHECK (attendance is null or attendance in ('present', 'no_show')),
	CONSTRAINT "meetings_locale_check" CHECK (locale is null or locale in ('en', 'zh-TW'))
);
--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "attachments" jsonb;--> statement-breakpoint
ALTER TABLE "meeting_exhibitors" ADD CONSTRAINT "meeting_exhibitors_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meeting_people" ADD CONSTRAINT "meeting_people_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meeting_people" ADD CONSTRAINT "meeting_people_slot_id_meeting_slots_id_fk" FOREIGN KEY ("slot_id") REFERENCES "public"."meeting_slots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meeting_people" ADD CONSTRAINT "meeting_people_meeting_id_meetings_id_fk" FOREIGN KEY ("meeting_id") REFERENCES "public"."meetings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meeting_settings" ADD CONSTRAINT "meeting_settings_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meeting_slots" ADD CONSTRAINT "meeting_slots_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meeting_tables" ADD CONSTRAINT "meeting_tables_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meeting_unavailable" ADD CONSTRAINT "meeting_unavailable_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meeting_unavailable" ADD CONSTRAINT "meeting_unavailable_slot_id_meeting_slots_id_fk" FOREIGN KEY ("slot_id") REFERENCES "public"."meeting_slots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meetings" ADD CONSTRAINT "meetings_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meetings" ADD CONSTRAINT "meetings_exhibitor_id_registrations_id_fk" FOREIGN KEY ("exhibitor_id") REFERENCES "public"."registrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meetings" ADD CONSTRAINT "meetings_slot_id_meeting_slots_id_fk" FOREIGN KEY ("slot_id") REFERENCES "public"."meeting_slots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meetings" ADD CONSTRAINT "meetings_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meetings" ADD CONSTRAINT "meetings_table_id_meeting_tables_id_fk" FOREIGN KEY ("table_id") REFERENCES "public"."meeting_tables"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "meeting_people_meeting_idx" ON "meeting_people" USING btree ("meeting_id");--> statement-breakpoint
CREATE UNIQUE INDEX "meeting_slots_start_idx" ON "meeting_slots" USING btree ("edition_id","starts_at");--> statement-breakpoint
CREATE UNIQUE INDEX "meeting_tables_name_idx" ON "meeting_tables" USING btree ("edition_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "meetings_exhibitor_slot_idx" ON "meetings" USING btree ("exhibitor_id","slot_id") WHERE status in ('requested', 'accepted');--> statement-breakpoint
CREATE UNIQUE INDEX "meetings_table_slot_idx" ON "meetings" USING btree ("table_id","slot_id") WHERE "meetings"."table_id" is not null and status in ('requested', 'accepted');--> statement-breakpoint
CREATE INDEX "meetings_buyer_idx" ON "meetings" USING btree ("buyer_id","status");--> statement-breakpoint
CREATE INDEX "meetings_slot_idx" ON "meetings" USING btree ("slot_id");