CREATE TABLE "dev_content_works" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"owner_subject" text NOT NULL,
	"owner_email" text NOT NULL,
	"genre" text NOT NULL,
	"category_id" integer NOT NULL,
	"title_en" text NOT NULL,
	"title_zh" text NOT NULL,
	"price_cents_twd" integer DEFAULT 0 NOT NULL,
	"price_cents_usd" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dev_content_works_genre_check" CHECK (genre in ('piece', 'project')),
	CONSTRAINT "dev_content_works_category_check" CHECK ("dev_content_works"."category_id" between 1 and 16),
	CONSTRAINT "dev_content_works_price_check" CHECK ("dev_content_works"."price_cents_twd" >= 0 and "dev_content_works"."price_cents_usd" >= 0)
);
--> statement-breakpoint
ALTER TABLE "badge_links" ADD COLUMN "order_id" uuid;--> statement-breakpoint
ALTER TABLE "badge_links" ADD COLUMN "order_seq" integer;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "offered_registration_types" text[];--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "included_badges" integer;--> statement-breakpoint
ALTER TABLE "order_contents" ADD COLUMN "title_zh" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "order_contents" ADD COLUMN "genre" text;--> statement-breakpoint
ALTER TABLE "order_contents" ADD COLUMN "category_id" integer;--> statement-breakpoint
CREATE INDEX "dev_content_works_owner_idx" ON "dev_content_works" USING btree ("owner_subject","id");--> statement-breakpoint
ALTER TABLE "badge_links" ADD CONSTRAINT "badge_links_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "badge_links_order_seq_idx" ON "badge_links" USING btree ("order_id","order_seq");--> statement-breakpoint
ALTER TABLE "badge_links" ADD CONSTRAINT "badge_links_order_check" CHECK (("badge_links"."order_id" is null) = ("badge_links"."order_seq" is null));