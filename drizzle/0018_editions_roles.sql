CREATE TABLE "editions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"name_en" text NOT NULL,
	"name_zh" text NOT NULL,
	"is_current" boolean DEFAULT false NOT NULL,
	"time_zone" text DEFAULT 'Asia/Taipei' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "editions_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "edition_id" uuid;--> statement-breakpoint
ALTER TABLE "organisers" ADD COLUMN "role" text DEFAULT 'admin' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "editions_one_current_idx" ON "editions" USING btree ("is_current") WHERE "editions"."is_current";--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisers" ADD CONSTRAINT "organisers_role_check" CHECK (role in ('admin', 'finance', 'reviewer', 'desk', 'viewer'));--> statement-breakpoint
INSERT INTO "editions" ("slug", "name_en", "name_zh", "is_current")
  SELECT 'tccf-' || y, 'TCCF ' || y, 'TCCF ' || y, true
  FROM (SELECT extract(year FROM min("start_time") AT TIME ZONE 'Asia/Taipei')::int::text AS y FROM "events") AS first_event
  WHERE y IS NOT NULL;--> statement-breakpoint
UPDATE "events" SET "edition_id" = (SELECT "id" FROM "editions" WHERE "is_current") WHERE "edition_id" IS NULL;
