ALTER TABLE "badge_links" ADD COLUMN "edition_id" uuid;--> statement-breakpoint
ALTER TABLE "badge_links" ADD CONSTRAINT "badge_links_edition_id_editions_id_fk" FOREIGN KEY ("edition_id") REFERENCES "public"."editions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- An order's included link: the order's event's edition.
UPDATE "badge_links" SET "edition_id" = "events"."edition_id" FROM "orders", "events" WHERE "badge_links"."order_id" = "orders"."id" AND "events"."id" = "orders"."event_id";--> statement-breakpoint
-- An organiser's link: the edition that was newest when it was made (else the current one).
UPDATE "badge_links" SET "edition_id" = COALESCE(
  (SELECT "e"."id" FROM "editions" "e" WHERE "e"."created_at" <= "badge_links"."created_at" ORDER BY "e"."created_at" DESC LIMIT 1),
  (SELECT "e"."id" FROM "editions" "e" WHERE "e"."is_current" LIMIT 1)
) WHERE "badge_links"."order_id" IS NULL;
