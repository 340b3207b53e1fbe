import { z } from "zod";
import { E } from "../error-cases";
import { group } from "../endpoint";
import { idParams, projectSchema } from "../requests";
import { project } from "../sessions";

const oneProject = z.object({ project });

export const projects = group("Projects", "Group sessions and their memories.", {
  listProjects: {
    method: "GET",
    path: "/api/projects",
    summary: "Your projects",
    responses: { 200: { description: "The projects.", json: z.object({ projects: z.array(project) }) } },
  },
  createProject: {
    method: "POST",
    path: "/api/projects",
    summary: "Create a project",
    body: projectSchema,
    bodyLimit: 4 * 1024,
    responses: { 201: { description: "The project.", json: oneProject } },
    errors: [E.duplicateName],
  },
  renameProject: {
    method: "PATCH",
    path: "/api/projects/{id}",
    summary: "Rename a project",
    params: idParams,
    body: projectSchema,
    bodyLimit: 4 * 1024,
    responses: { 200: { description: "The project.", json: oneProject } },
    errors: [E.duplicateName],
  },
  deleteProject: {
    method: "DELETE",
    path: "/api/projects/{id}",
    summary: "Delete a project",
    description: "Its sessions stay, without a project.",
    params: idParams,
    responses: { 204: { description: "Deleted." } },
  },
});
