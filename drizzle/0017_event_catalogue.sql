ALTER TABLE "event_changes" ADD COLUMN "action" text DEFAULT 'updated' NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "status" text DEFAULT 'published' NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "address_en" jsonb;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "address_zh" jsonb;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "live_stream_url" text;--> statement-breakpoint
ALTER TABLE "event_changes" ADD CONSTRAINT "event_changes_action_check" CHECK (action in ('created', 'updated', 'published', 'unpublished', 'archived', 'duplicated'));--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_status_check" CHECK (status in ('draft', 'published', 'archived'));