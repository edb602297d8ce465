CREATE TABLE "meeting_table_holds" (
	"table_id" uuid NOT NULL,
	"slot_id" uuid NOT NULL,
	"meeting_id" uuid NOT NULL,
	CONSTRAINT "meeting_table_holds_table_id_slot_id_pk" PRIMARY KEY("table_id","slot_id")
);
--> statement-breakpoint
ALTER TABLE "meeting_table_holds" ADD CONSTRAINT "meeting_table_holds_table_id_meeting_tables_id_fk" FOREIGN KEY ("table_id") REFERENCES "public"."meeting_tables"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meeting_table_holds" ADD CONSTRAINT "meeting_table_holds_slot_id_meeting_slots_id_fk" FOREIGN KEY ("slot_id") REFERENCES "public"."meeting_slots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meeting_table_holds" ADD CONSTRAINT "meeting_table_holds_meeting_id_meetings_id_fk" FOREIGN KEY ("meeting_id") REFERENCES "public"."meetings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "meeting_table_holds_meeting_idx" ON "meeting_table_holds" USING btree ("meeting_id");--> statement-breakpoint
INSERT INTO "meeting_table_holds" ("table_id", "slot_id", "meeting_id") SELECT "table_id", "slot_id", "id" FROM "meetings" WHERE "status" = 'accepted' AND "table_id" IS NOT NULL ON CONFLICT DO NOTHING;
