ALTER TABLE "event_changes" ADD COLUMN "action" text DEFAULT 'updated' NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "status" text DEFAULT 'published' NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "address_en" jsonb;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "address_zh" jsonb;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "live_stream_url" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "image_file_id" uuid;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_image_file_id_files_id_fk" FOREIGN KEY ("image_file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_changes" ADD CONSTRAINT "event_changes_action_check" CHECK (action in ('created', 'updated', 'published', 'unpublished', 'archived', 'duplicated'));--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_status_check" CHECK (status in ('draft', 'published', 'archived'));