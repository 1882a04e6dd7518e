//! The object files checked against the records once replay is done (`--data-dir`): what a
//! crash leaves is expected and cleared (half-written bodies in `s3/tmp`, files in
//! `s3/objects` whose record was never written); a record whose file is missing or of
//! another length is damage, which stops the start unless a repair drops it.

use std::collections::BTreeMap;
use std::fs;
use std::io;

use super::disk::{self, DAMAGED, OBJECTS, TMP};
use super::{FileCheck, Store};

/// Each file the records name: its length by them, and who names it.
type Named = BTreeMap<String, (u64, Vec<String>)>;

impl Store {
    /// Checks the files against the replayed records. Without `repair`, damage is reported
    /// and nothing is changed; with it, each damaged object or part is dropped (without a
    /// record: the caller writes a snapshot) and its file, and every orphan, set aside in
    /// `s3/damaged`. Orphans are otherwise removed.
    pub fn check_files(&self, repair: bool) -> io::Result<FileCheck> {
        let Some(disk) = &self.disk else {
            return Ok(FileCheck::default());
        };
        disk.restored();
        let root = disk.root().to_path_buf();
        for entry in fs::read_dir(root.join(TMP))? {
            fs::remove_file(entry?.path())?;
        }
        let named = self.named_files();
        let mut check = FileCheck::default();
        for (name, (len, users)) in &named {
            let why = match fs::metadata(disk.path(name)) {
                Ok(m) if m.len() == *len => continue,
                Ok(m) => format!("is {} bytes where its record says {len}", m.len()),
                Err(e) if e.kind() == io::ErrorKind::NotFound => "is missing".to_owned(),
                Err(e) => return Err(e),
            };
            for user in users {
                check
                    .damaged
                    .push(format!("{user}: its file {OBJECTS}/{name} {why}"));
            }
            if repair {
                check.set_aside.insert(name.clone());
            }
        }
        if !check.damaged.is_empty() && !repair {
            return Ok(check);
        }
        for entry in fs::read_dir(root.join(OBJECTS))? {
            let name = entry?.file_name().to_string_lossy().into_owned();
            if !named.contains_key(&name) {
                check.orphans.push(name.clone());
                if repair {
                    check.set_aside.insert(name);
                } else {
                    fs::remove_file(disk.path(&name))?;
                }
            }
        }
        if repair {
            self.drop_damaged(&check);
            disk::create_dir(&root.join(DAMAGED))?;
            for name in &check.set_aside {
                match fs::rename(disk.path(name), root.join(DAMAGED).join(name)) {
                    Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
                    _ => {}
                }
            }
        }
        Ok(check)
    }

    /// Every file the objects and parts are made of, with who is made of it.
    fn named_files(&self) -> Named {
        let mut named = Named::new();
        for bucket in self.all() {
            let state = bucket.raw();
            let mut add = |data: &super::data::Data, user: &dyn Fn() -> String| {
                for (file, _, _) in data.files() {
                    let entry = named
                        .entry(file.name().to_owned())
                        .or_insert_with(|| (file.len(), Vec::new()));
                    entry.1.push(user());
                }
            };
            for (key, object) in &state.objects {
                add(&object.data, &|| format!("object {}/{key}", bucket.name));
            }
            for upload in state.uploads.values() {
                for (number, part) in &upload.parts {
                    let user = || {
                        format!(
                            "part {number} of upload {} of {}/{}",
                            upload.id, bucket.name, upload.key
                        )
                    };
                    add(&part.data, &user);
                }
            }
        }
        named
    }

    /// Drops every object and part made of a file `check` sets aside.
    fn drop_damaged(&self, check: &FileCheck) {
        let damaged = |data: &super::data::Data| {
            data.files()
                .any(|(file, _, _)| check.set_aside.contains(file.name()))
        };
        for bucket in self.all() {
            let mut state = bucket.raw();
            state.objects.retain(|_, object| !damaged(&object.data));
            for upload in state.uploads.values_mut() {
                upload.parts.retain(|_, part| !damaged(&part.data));
            }
        }
    }
}
