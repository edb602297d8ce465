CREATE TABLE "badge_pickups" (
	"id" uuid PRIMARY KEY NOT NULL,
	"badge_id" uuid NOT NULL,
	"outcome" text NOT NULL,
	"refusal" text,
	"organiser" text NOT NULL,
	"desk" text NOT NULL,
	"picked_up_at" timestamp with time zone NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "badge_pickups_outcome_check" CHECK (outcome in ('picked_up', 'already_picked_up', 'refused'))
);
--> statement-breakpoint
ALTER TABLE "order_events" DROP CONSTRAINT "order_events_kind_check";--> statement-breakpoint
ALTER TABLE "badges" ADD COLUMN "picked_up_by" text;--> statement-breakpoint
ALTER TABLE "badges" ADD COLUMN "picked_up_desk" text;--> statement-breakpoint
ALTER TABLE "badge_pickups" ADD CONSTRAINT "badge_pickups_badge_id_badges_id_fk" FOREIGN KEY ("badge_id") REFERENCES "public"."badges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "badge_pickups_badge_idx" ON "badge_pickups" USING btree ("badge_id","recorded_at");--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_kind_check" CHECK (kind in ('placed', 'card_attempt_started', 'card_declined', 'transfer_declared', 'paid', 'expired', 'review_started', 'approved', 'rejected', 'canceled', 'refund_due', 'refunded', 'form_updated', 'badge_picked_up'));