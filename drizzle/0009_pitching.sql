CREATE TABLE "pitching_applicants" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"works_used" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pitching_applicants_works_check" CHECK ("pitching_applicants"."works_used" >= 0 and "pitching_applicants"."works_used" <= 5)
);
--> statement-breakpoint
DROP INDEX "orders_user_event_live_idx";--> statement-breakpoint
ALTER TABLE "order_contents" ADD COLUMN "pitching" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "order_contents" ADD COLUMN "live" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "pitching_applicants" ADD CONSTRAINT "pitching_applicants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "order_contents_pitching_work_idx" ON "order_contents" USING btree ("content_id") WHERE "order_contents"."pitching" and "order_contents"."live";--> statement-breakpoint
CREATE UNIQUE INDEX "orders_user_event_live_idx" ON "orders" USING btree ("user_id","event_id") WHERE payment_status in ('free', 'pending', 'checking', 'paid') and registration_type not in ('PITCHING_PROJECT', 'PITCHING_STORY');