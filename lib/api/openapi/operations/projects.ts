import { z } from "zod";
import { idParams } from "@/lib/contract/requests";
import { projectSchema } from "@/lib/operations/projects";
import { E } from "../errors";
import type { OperationGroup } from "../registry";
import { project } from "@/lib/contract/sessions";

const oneProject = z.object({ project });

export const projects: OperationGroup = {
  tag: "Projects",
  description: "Group sessions and their memories.",
  operations: [
    {
      method: "GET",
      path: "/api/projects",
      operationId: "listProjects",
      summary: "Your projects",
      responses: { 200: { description: "The projects.", json: z.object({ projects: z.array(project) }) } },
    },
    {
      method: "POST",
      path: "/api/projects",
      operationId: "createProject",
      summary: "Create a project",
      body: projectSchema,
      responses: { 201: { description: "The project.", json: oneProject } },
      errors: [E.duplicateName],
    },
    {
      method: "PATCH",
      path: "/api/projects/{id}",
      operationId: "renameProject",
      summary: "Rename a project",
      params: idParams,
      body: projectSchema,
      responses: { 200: { description: "The project.", json: oneProject } },
      errors: [E.duplicateName],
    },
    {
      method: "DELETE",
      path: "/api/projects/{id}",
      operationId: "deleteProject",
      summary: "Delete a project",
      description: "Its sessions stay, without a project.",
      params: idParams,
      responses: { 204: { description: "Deleted." } },
    },
  ],
};
