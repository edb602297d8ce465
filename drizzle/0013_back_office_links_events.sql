CREATE TABLE "badge_link_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"identity" text NOT NULL,
	"size" integer NOT NULL,
	"emailed" boolean DEFAULT false NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "badge_link_batches_identity_check" CHECK (identity in ('PROFESSIONAL', 'VIP', 'EXHIBITOR_PITCHING', 'EXHIBITOR_MARKET', 'EXHIBITOR_INNOVATIONS')),
	CONSTRAINT "badge_link_batches_size_check" CHECK ("badge_link_batches"."size" > 0)
);
--> statement-breakpoint
CREATE TABLE "event_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" uuid NOT NULL,
	"changed_by" text NOT NULL,
	"changes" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "badge_links" ADD COLUMN "batch_id" uuid;--> statement-breakpoint
ALTER TABLE "badge_links" ADD COLUMN "revoked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "badge_links" ADD COLUMN "revoked_by" text;--> statement-breakpoint
ALTER TABLE "event_changes" ADD CONSTRAINT "event_changes_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "badge_link_batches_created_idx" ON "badge_link_batches" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "event_changes_event_idx" ON "event_changes" USING btree ("event_id","id");--> statement-breakpoint
ALTER TABLE "badge_links" ADD CONSTRAINT "badge_links_batch_id_badge_link_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."badge_link_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "badge_links_batch_idx" ON "badge_links" USING btree ("batch_id");--> statement-breakpoint
ALTER TABLE "badge_links" ADD CONSTRAINT "badge_links_used_or_revoked_check" CHECK ("badge_links"."used_at" is null or "badge_links"."revoked_at" is null);--> statement-breakpoint
ALTER TABLE "badge_links" ADD CONSTRAINT "badge_links_revoked_check" CHECK (("badge_links"."revoked_at" is null) = ("badge_links"."revoked_by" is null));