ALTER TABLE "badges" DROP CONSTRAINT "badges_user_id_unique";--> statement-breakpoint
ALTER TABLE "badges" DROP CONSTRAINT "badges_email_key_unique";--> statement-breakpoint
DROP INDEX "orders_one_badge_per_user_idx";--> statement-breakpoint
DROP INDEX "orders_one_badge_per_email_idx";--> statement-breakpoint
ALTER TABLE "badges" ADD COLUMN "edition_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "badge_edition_id" uuid;--> statement-breakpoint
ALTER TABLE "badges" ADD CONSTRAINT "badges_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_badge_edition_id_editions_id_fk" FOREIGN KEY ("badge_edition_id") REFERENCES "public"."editions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Badge orders: their event's edition (decision 068: one badge per person and edition).
UPDATE "orders" SET "badge_edition_id" = "events"."edition_id" FROM "events" WHERE "events"."id" = "orders"."event_id" AND ("orders"."registration_type" IN ('BADGE_PROFESSIONAL', 'BADGE_FREE') OR "orders"."badge_email_key" IS NOT NULL);--> statement-breakpoint
-- Badges: their order's.
UPDATE "badges" SET "edition_id" = "orders"."badge_edition_id" FROM "orders" WHERE "orders"."id" = "badges"."order_id";--> statement-breakpoint
CREATE UNIQUE INDEX "badges_edition_user_idx" ON "badges" USING btree (coalesce(edition_id, '00000000-0000-0000-0000-000000000000'::uuid),"user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "badges_edition_email_idx" ON "badges" USING btree (coalesce(edition_id, '00000000-0000-0000-0000-000000000000'::uuid),"email_key");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_one_badge_per_user_idx" ON "orders" USING btree (coalesce(badge_edition_id, '00000000-0000-0000-0000-000000000000'::uuid),"user_id") WHERE registration_type in ('BADGE_PROFESSIONAL', 'BADGE_FREE') and payment_status in ('free', 'pending', 'checking', 'paid');--> statement-breakpoint
CREATE UNIQUE INDEX "orders_one_badge_per_email_idx" ON "orders" USING btree (coalesce(badge_edition_id, '00000000-0000-0000-0000-000000000000'::uuid),"badge_email_key") WHERE "orders"."badge_email_key" is not null and payment_status in ('free', 'pending', 'checking', 'paid');