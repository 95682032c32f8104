-- Full-text search over published-post titles and excerpts (the spec's public blog search).
-- The trigram tokenizer makes MATCH a case-insensitive substring search. Triggers keep the
-- index in step with blog_posts.
CREATE VIRTUAL TABLE `blog_posts_fts` USING fts5(title, excerpt, content='blog_posts', content_rowid='id', tokenize='trigram');
--> statement-breakpoint
INSERT INTO `blog_posts_fts`(rowid, title, excerpt) SELECT id, title, coalesce(excerpt, '') FROM `blog_posts`;
--> statement-breakpoint
CREATE TRIGGER `blog_posts_fts_ai` AFTER INSERT ON `blog_posts` BEGIN
  INSERT INTO blog_posts_fts(rowid, title, excerpt) VALUES (new.id, new.title, coalesce(new.excerpt, ''));
END;
--> statement-breakpoint
CREATE TRIGGER `blog_posts_fts_ad` AFTER DELETE ON `blog_posts` BEGIN
  INSERT INTO blog_posts_fts(blog_posts_fts, rowid, title, excerpt) VALUES ('delete', old.id, old.title, coalesce(old.excerpt, ''));
END;
--> statement-breakpoint
CREATE TRIGGER `blog_posts_fts_au` AFTER UPDATE OF title, excerpt ON `blog_posts` BEGIN
  INSERT INTO blog_posts_fts(blog_posts_fts, rowid, title, excerpt) VALUES ('delete', old.id, old.title, coalesce(old.excerpt, ''));
  INSERT INTO blog_posts_fts(rowid, title, excerpt) VALUES (new.id, new.title, coalesce(new.excerpt, ''));
END;
--> statement-breakpoint
CREATE INDEX `blog_posts_published_category_idx` ON `blog_posts` (`is_published`, `category`, `created_at`);
