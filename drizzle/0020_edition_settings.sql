CREATE TABLE "edition_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"edition_id" uuid NOT NULL,
	"changed_by" text NOT NULL,
	"action" text DEFAULT 'updated' NOT NULL,
	"changes" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "editions" ADD COLUMN "venue_map_url" text;--> statement-breakpoint
ALTER TABLE "editions" ADD COLUMN "badge_rights_file_id" uuid;--> statement-breakpoint
ALTER TABLE "editions" ADD COLUMN "contact_email" text;--> statement-breakpoint
ALTER TABLE "editions" ADD COLUMN "bank_name" text;--> statement-breakpoint
ALTER TABLE "editions" ADD COLUMN "bank_name_zh" text;--> statement-breakpoint
ALTER TABLE "editions" ADD COLUMN "bank_code" text;--> statement-breakpoint
ALTER TABLE "editions" ADD COLUMN "bank_account_name" text;--> statement-breakpoint
ALTER TABLE "editions" ADD COLUMN "bank_account_name_zh" text;--> statement-breakpoint
ALTER TABLE "editions" ADD COLUMN "bank_account_number" text;--> statement-breakpoint
ALTER TABLE "editions" ADD COLUMN "bank_swift_code" text;--> statement-breakpoint
ALTER TABLE "pickup_slots" ADD COLUMN "edition_id" uuid;--> statement-breakpoint
ALTER TABLE "edition_changes" ADD CONSTRAINT "edition_changes_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "edition_changes_edition_idx" ON "edition_changes" USING btree ("edition_id","id");--> statement-breakpoint
ALTER TABLE "editions" ADD CONSTRAINT "editions_badge_rights_file_id_files_id_fk" FOREIGN KEY ("badge_rights_file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pickup_slots" ADD CONSTRAINT "pickup_slots_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pickup_slots_edition_idx" ON "pickup_slots" USING btree ("edition_id");--> statement-breakpoint
-- The schedule that was there is the current edition's (the seed's demo edition).
UPDATE "pickup_slots" SET "edition_id" = (SELECT "id" FROM "editions" WHERE "is_current") WHERE "edition_id" IS NULL;
