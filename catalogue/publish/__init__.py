"""Publishing: the only writer of site/, below every stage. A site is made in a staging folder
beside site/ (staging), filled with only the files whose inputs changed since the last build
(writer, files), recorded (manifest) and swapped in whole when complete, the build's private files
moved out beside it (record); a build that fails or is killed leaves the previous site/ as it was.
Which folder a site may replace is the guard's to say.
The pipeline, the commands and the search stage ask through one object, site_folder.SiteFolder."""
